import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanString } from './clean-text.js';
import { parseFeed } from './index.js';

describe('cleanString', () => {
  it('removes C0 control characters but keeps tab, line feed and carriage return', () => {
    assert.equal(cleanString('a\u0000b\u0001c\u001fd\te\nf\rg\u000bh\u000c'), 'abcd\te\nf\rgh');
  });

  it('removes C1 control characters, which no text means (windows-1252 leaves 0x81, 0x8D, 0x9D undefined)', () => {
    assert.equal(cleanString('caf\u00e9\u009d \u0085x\u0080'), 'caf\u00e9 x');
    const bytes = Buffer.from(
      '<?xml version="1.0" encoding="windows-1252"?><rss version="2.0"><channel><title>T</title><item><title>a\x9db \x93q\x94</title><guid>1</guid></item></channel></rss>',
      'latin1',
    );
    const result = parseFeed(bytes);
    assert.equal(result.entries[0]?.title, 'ab \u201cq\u201d');
    assert.ok(result.diagnostics.some((d) => d.code === 'text.control-character' && d.entry === 0));
  });

  it('replaces lone surrogates with U+FFFD and keeps pairs', () => {
    assert.equal(cleanString('\ud800a\udc00 \ud83d\ude00'), '\ufffda\ufffd \ud83d\ude00');
    assert.equal(cleanString('end\ud83d'), 'end\ufffd');
  });

  it('returns the same string when there is nothing to clean', () => {
    const text = 'plain \ud83d\ude00 text';
    assert.equal(cleanString(text), text);
  });
});

describe('parseFeed and control characters', () => {
  it('cleans every field kind and reports each kind once', () => {
    const doc = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'T\u0000',
      items: [1, 2, 3].map((n) => ({
        id: `${n}\u0000`,
        title: `\ud800${n}`,
        url: `https://example.com/${n}\u0001`,
        attachments: [{ url: `https://example.com/${n}.mp3\u0002`, mime_type: 'audio/mpeg\u0000' }],
        authors: [{ name: 'A\u0003' }],
      })),
    });
    const result = parseFeed(doc);
    const walk = (value: unknown): void => {
      if (typeof value === 'string')
        assert.doesNotMatch(value, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udfff]/u);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
    };
    walk(result);
    assert.equal(result.entries[1]?.id, '2');
    assert.equal(result.entries[1]?.title, '\ufffd2');
    const reports = result.diagnostics.filter((d) => d.code === 'text.control-character');
    // the URL parser already strips trailing control characters from links: only their type is left
    assert.deepEqual(
      reports.map((d) => `${d.entry ?? 'feed'} ${d.field}`),
      ['feed title', '0 id', '0 links', '0 title', '0 authors', '0 author', '0 enclosures'],
    );
    assert.match(reports[1]?.message ?? '', /in the id of 3 entries, the first entry 0/);
  });
});
