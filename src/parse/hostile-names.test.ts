import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from './index.js';

// Names that are also members of Object.prototype (issue 12): each once as an element name, a namespace
// prefix (declared and not), an attribute name and a JSON key.
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'];

function rssWith(name: string): string[] {
  return [
    `<rss version="2.0"><channel><${name}>x</${name}><item><title>a</title><${name}>y</${name}></item></channel></rss>`,
    `<rss version="2.0" xmlns:${name}="http://x/"><channel><${name}:a>x</${name}:a><item><title>a</title><${name}:b>y</${name}:b></item></channel></rss>`,
    `<rss version="2.0"><channel><${name}:a>x</${name}:a><item><title>a</title></item></channel></rss>`,
    `<rss version="2.0"><channel ${name}="1"><item ${name}="2"><title ${name}="3">a</title></item></channel></rss>`,
    `<rss version="2.0"><channel><item ${name}="2"><title>a & b</title><${name}:x>1</${name}:x></item></channel></rss>`,
    `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:${name}="urn:x"><entry><title>a</title><link ${name}="x" href="http://a/"/></entry></feed>`,
  ];
}

describe('names that Object.prototype also has', () => {
  for (const name of NAMES) {
    it(`reads XML using ${name} as element, prefix and attribute name`, () => {
      for (const doc of rssWith(name)) {
        const result = parseFeed(doc);
        assert.equal(result.entries.length, 1, doc);
        assert.equal(result.entries[0]?.title, doc.includes('a & b') ? 'a & b' : 'a');
      }
    });

    it(`reads JSON Feed using ${name} as keys and values`, () => {
      const doc = JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: name,
        [name]: { a: 1 },
        items: [{ id: name, title: name, tags: [name], [name]: 1, authors: [{ name, [name]: 1 }] }],
      });
      const result = parseFeed(doc.replace(`"${name}":{"a":1}`, `"${name}":{"a":1},"__proto__":[]`));
      assert.equal(result.entries.length, 1);
      assert.equal(result.entries[0]?.id, name);
      assert.equal(result.feed.title, name);
    });
  }

  it('records a namespace declared under the prefix __proto__', () => {
    const result = parseFeed(
      '<rss version="2.0" xmlns:__proto__="urn:p"><channel><item><title>a</title></item></channel></rss>',
    );
    assert.equal(Object.getOwnPropertyDescriptor(result.namespaces, '__proto__')?.value, 'urn:p');
  });
});
