import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from './index.js';
import { markStrayLessThans } from './xml/tolerant.js';

const rss = (items: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>${items}</channel></rss>`;

describe('a stray < in a feed that is not well-formed', () => {
  it('stays text, and the rest of its item stays the item', () => {
    const result = parseFeed(
      rss(
        '<item><title>Sale</title><description>price <5 euro for members</description>' +
          '<link>http://ex.example/1</link><guid>g1</guid><pubDate>Mon, 06 Jan 2020 10:00:00 GMT</pubDate></item>' +
          '<item><title>if x<y then</title><guid>g2</guid><link>http://ex.example/2</link></item>' +
          '<item><title>a <= b</title><guid>g3</guid></item>' +
          '<item><title>kept</title><guid>g4</guid><description><![CDATA[ x<5 ]]></description></item>',
      ),
    );
    assert.ok(result.bozo);
    // a guid with no isPermaLink="false" is the entry's link too
    const seen = result.entries.map((e) => [e.id, e.title, e.link ?? null]);
    assert.deepEqual(seen, [
      ['g1', 'Sale', 'http://ex.example/1'],
      ['g2', 'if x<y then', 'http://ex.example/2'],
      ['g3', 'a <= b', 'g3'],
      ['g4', 'kept', 'g4'],
    ]);
    assert.equal(result.entries[0]?.summary, 'price &lt;5 euro for members');
    assert.equal(result.entries[0]?.published, '2020-01-06T10:00:00Z');
    assert.equal(result.entries[3]?.summary, 'x&lt;5');
  });

  it('in an Atom title keeps the entry its link, date and content', () => {
    const result = parseFeed(
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:f</id>' +
        '<entry><id>urn:1</id><title>if x<10 then</title><link href="http://ex.example/1"/>' +
        '<updated>2024-01-01T00:00:00Z</updated><content type="html">body</content></entry></feed>',
    );
    const [entry] = result.entries;
    assert.equal(entry?.title, 'if x<10 then');
    assert.equal(entry?.link, 'http://ex.example/1');
    assert.equal(entry?.updated, '2024-01-01T00:00:00Z');
    assert.equal(entry?.content?.[0]?.value, 'body');
  });

  it('names every broken item, not only the first: each bare & and stray < in its entry and field', () => {
    const result = parseFeed(
      rss(
        '\n<item><title>A & B</title><guid>0</guid></item>' +
          '\n<item><title>ok</title><guid>1</guid></item>' +
          '\n<item><guid>2</guid><description>C & D</description></item>' +
          '\n<item><title>x <3 y</title><guid>3</guid><description><![CDATA[ a<5 & b ]]></description></item>',
      ),
    );
    assert.equal(result.entries.length, 4);
    const broken = result.diagnostics
      .filter((d) => d.code === 'xml.not-well-formed')
      .map((d) => [d.entry, d.field, d.line]);
    assert.deepEqual(broken, [
      [0, 'title', 2],
      [2, 'description', 4],
      [3, 'title', 5],
    ]);
  });

  it('marks only the < that start no markup, quoted values and sections aside', () => {
    const mark = (text: string) => markStrayLessThans(text)?.replaceAll('\uFDD0', '#');
    assert.equal(mark('<a title="x<y">z</a> 1<2'), '<a title="x<y">z</a> 1#2');
    assert.equal(mark('<x>a<b c</x><!-- <5 --><?pi?>'), '<x>a#b c</x><!-- <5 --><?pi?>');
    assert.equal(mark('<![CDATA[ x<5 ]]>'), undefined);
    assert.equal(mark('<x>fine</x>'), undefined);
    assert.equal(mark('end<'), 'end#');
  });
});
