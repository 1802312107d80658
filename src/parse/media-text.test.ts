// Media RSS texts are plain text: shown and searched as text by every consumer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from './index.js';

describe('media:description', () => {
  it('reads one declared type="html" as the text it shows, scripts and all markup gone', () => {
    const xml = `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>t</title>
      <item><guid>1</guid><media:description type="html">&lt;b&gt;md&lt;/b&gt; &amp;amp; &lt;script&gt;steal()&lt;/script&gt;more</media:description></item>
      <item><guid>2</guid><media:description>a &lt;b&gt; as written</media:description></item></channel></rss>`;
    const [html, plain] = parseFeed(Buffer.from(xml)).entries.map((e) => e.media?.description);
    assert.equal(html, 'md & more');
    assert.equal(plain, 'a <b> as written');
  });
});
