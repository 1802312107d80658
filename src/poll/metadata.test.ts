import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../parse/index.js';
import { feedMetadata } from './metadata.js';

const metadataOf = (xml: string) => feedMetadata(parseFeed(Buffer.from(xml), {}));

describe('feedMetadata', () => {
  it('stores a title given as HTML as the text it shows, and a plain one as written', () => {
    const atom = metadataOf(`<feed xmlns="http://www.w3.org/2005/Atom">
      <title type="html">Hostile &lt;img src="x" onerror="alert(1)"&gt; &lt;b&gt;news&lt;/b&gt; &amp;amp; more</title>
      <subtitle type="html">A &lt;i&gt;daily&lt;/i&gt; read</subtitle><id>urn:x</id><updated>2026-01-01T00:00:00Z</updated></feed>`);
    assert.equal(atom.title, 'Hostile news & more');
    assert.equal(atom.description, 'A daily read');
    // a text title keeps its angle brackets: they are what the feed wrote
    const rss = metadataOf(
      '<rss version="2.0"><channel><title>a &lt;b&gt; c AT&amp;T</title><description>Plain &amp; simple</description></channel></rss>',
    );
    assert.equal(rss.title, 'a <b> c AT&T');
    assert.equal(rss.description, 'Plain & simple');
  });
});
