import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../parse/index.js';
import { statusOfParse } from './status.js';

describe('statusOfParse', () => {
  it('counts the entries read in words of the right number', () => {
    const rss = (items: number) =>
      `<rss version="2.0"><channel><title>T</title>${'<item><guid>g</guid></item>'.repeat(items)}</channel></rss>`;
    assert.equal(statusOfParse(parseFeed(rss(1))).message, '1 entry (rss20)');
    assert.equal(statusOfParse(parseFeed(rss(0))).message, '0 entries (rss20)');
  });

  it('gives an OPML file a parse_error that says what it is', () => {
    const status = statusOfParse(
      parseFeed('<opml version="2.0"><body><outline xmlUrl="https://a.example/f"/></body></opml>'),
    );
    assert.equal(status.status, 'parse_error');
    assert.match(status.message, /OPML subscription list \(1 feed\), not a feed/);
  });
});
