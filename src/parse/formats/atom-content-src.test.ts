import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../index.js';

const feed = (entry: string) =>
  parseFeed(
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://ex.example/f/"><title>F</title><id>urn:f</id>${entry}</feed>`,
  );

describe('Atom out-of-line content (content src=)', () => {
  it('makes an image its enclosure and no empty content', () => {
    const [entry] = feed(
      '<entry><id>urn:3</id><title>E3</title><summary>a photo</summary><content type="image/png" src="img.png"/></entry>',
    ).entries;
    assert.deepEqual(entry?.enclosures, [{ href: 'https://ex.example/f/img.png', type: 'image/png' }]);
    assert.equal(entry?.content, undefined);
    assert.equal(entry?.summary, 'a photo');
  });

  it('makes another kind the entry link when it has none, and keeps inline content as it was', () => {
    const [page, inline] = feed(
      '<entry><id>urn:4</id><title>E4</title><content type="text/html" src="/posts/4"/></entry>' +
        '<entry><id>urn:5</id><title>E5</title><content type="html">&lt;p&gt;hi&lt;/p&gt;</content></entry>',
    ).entries;
    assert.equal(page?.link, 'https://ex.example/posts/4');
    assert.equal(page?.content, undefined);
    assert.equal(inline?.content?.[0]?.value, '<p>hi</p>');
  });
});
