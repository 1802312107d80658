import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prepareDocument } from './prepare.js';

const authorsOf = (document: string) =>
  prepareDocument({
    body: new TextEncoder().encode(document),
    options: {},
    now: '2026-01-01T00:00:00Z',
    arrival: false,
  }).items.map((item) => [item.guid, item.entry.authors, item.entry.authorUrl ?? null]);

describe('the authors of entries that name none', () => {
  it("are the atom:source's, else the Atom feed's (RFC 4287 4.2.1)", () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>F</title><id>urn:f</id>
      <author><name>Feed Author</name><uri>https://fa.example/</uri></author>
      <entry><id>urn:1</id><title>own</title><author><name>Own</name></author></entry>
      <entry><id>urn:2</id><title>none</title></entry>
      <entry><id>urn:3</id><title>copied</title>
        <source><id>urn:s</id><title>S</title><author><name>Source Author</name></author></source></entry>
    </feed>`;
    assert.deepEqual(authorsOf(atom), [
      ['urn:1', [{ name: 'Own' }], null],
      ['urn:2', [{ name: 'Feed Author', uri: 'https://fa.example/' }], 'https://fa.example/'],
      ['urn:3', [{ name: 'Source Author' }], null],
    ]);
  });

  it("are JSON Feed 1.1's top-level authors", () => {
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      authors: [{ name: 'JF Author', url: 'https://jf.example/' }],
      items: [
        { id: '1', content_text: 'a' },
        { id: '2', content_text: 'b', authors: [{ name: 'Item Author' }] },
      ],
    });
    assert.deepEqual(authorsOf(json), [
      ['1', [{ name: 'JF Author', uri: 'https://jf.example/' }], 'https://jf.example/'],
      ['2', [{ name: 'Item Author' }], null],
    ]);
  });

  it('are none in RSS, which has no such rule', () => {
    const rss = `<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>R</title>
      <dc:creator>Channel Creator</dc:creator><item><guid>r1</guid><title>t</title></item></channel></rss>`;
    assert.deepEqual(authorsOf(rss), [['r1', [], null]]);
  });
});
