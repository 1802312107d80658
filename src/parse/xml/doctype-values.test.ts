import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../index.js';

const feed = (dtd: string, title: string) =>
  parseFeed(
    `<?xml version="1.0"?>\n<!DOCTYPE rss [${dtd}]>\n<rss version="2.0"><channel><title>T</title>` +
      `<item><title>${title}</title><guid>1</guid></item></channel></rss>`,
  );

describe('entities declared in the DTD', () => {
  it('stand for the text their character references give, in the strict pass', () => {
    const result = feed(
      '<!ENTITY nbsp "&#160;"><!ENTITY me "Jane &amp; co"><!ENTITY copy "&#xA9;">',
      'A&nbsp;B &copy; &me;',
    );
    assert.equal(result.bozo, false);
    assert.deepEqual(result.entries[0]?.titleDetail, { type: 'text/plain', value: 'A\u00a0B © Jane & co' });
  });

  it('do so in the tolerant pass too, and a reference to no character is U+FFFD', () => {
    const result = feed('<!ENTITY nbsp "&#160;"><!ENTITY bad "&#0;x">', 'A&nbsp;B & C &bad;');
    assert.equal(result.bozo, true);
    assert.equal(result.entries[0]?.title, 'A\u00a0B & C \ufffdx');
  });

  it('make the document bozo when one is refused (an external entity) or too large', () => {
    const xxe = feed('<!ENTITY secret SYSTEM "file:///etc/passwd">', 'a &secret; b');
    assert.equal(xxe.bozo, true);
    assert.match(xxe.bozoReason ?? '', /external entity/);
    assert.equal(xxe.entries.length, 1);
    const big = feed(`<!ENTITY big "${'x'.repeat(10_001)}">`, 'a &big; b');
    assert.equal(big.bozo, true);
    assert.ok(big.diagnostics.some((d) => d.code === 'xml.entity-expansion'));
  });
});
