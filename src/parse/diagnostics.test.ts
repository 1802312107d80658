import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from './index.js';

const FEED = [
  '<?xml version="1.0"?>',
  '<rss version="2.0"><channel><title>t</title>',
  '<item><guid>a</guid><pubDate>someday soon</pubDate></item>',
  '</channel></rss>',
].join('\n');

describe('diagnostics: excerpts', () => {
  it('gives a located diagnostic its raw line when asked', () => {
    const result = parseFeed(FEED, { excerpts: true });
    const date = result.diagnostics.find((d) => d.field === 'pubDate');
    assert.equal(date?.line, 3);
    assert.equal(date?.excerpt, '<item><guid>a</guid><pubDate>someday soon</pubDate></item>');
    assert.equal(date?.excerptColumn, undefined);
  });

  it('keeps the parse contract without excerpts by default', () => {
    const result = parseFeed(FEED);
    assert.ok(result.diagnostics.length > 0);
    assert.ok(result.diagnostics.every((d) => d.excerpt === undefined));
  });

  it('cuts a long line to 200 characters around the column, and says where the column falls', () => {
    const padding = `<!-- ${'x'.repeat(5000)} -->`;
    const oneLine = `<rss version="2.0"><channel>${padding}<title>a & b</title><item><guid>a</guid></item></channel></rss>`;
    const result = parseFeed(oneLine, { excerpts: true });
    const error = result.diagnostics.find((d) => d.code === 'xml.not-well-formed');
    assert.ok(error?.column !== undefined && error.column > 5000, `column ${error?.column}`);
    assert.equal(error.excerpt?.length, 200);
    const column = error.excerptColumn ?? 0;
    assert.equal(error.excerpt?.[column - 1], oneLine[error.column - 1]);
    assert.match(error.excerpt ?? '', /a & b/);
  });
});

describe('diagnostics: entries without an id', () => {
  it('counts the entries that have none, and names the first of them', () => {
    const items = [
      '<item><guid>a</guid></item>',
      '<item><title>b</title></item>',
      '<item><title>c</title></item>',
    ];
    const result = parseFeed(`<rss version="2.0"><channel><title>t</title>${items.join('')}</channel></rss>`);
    const noId = result.diagnostics.find((d) => d.code === 'entry.no-id');
    assert.match(noId?.message ?? '', /2 of 3 entries have no guid or id/);
    assert.equal(noId?.entry, 1);
    const none = parseFeed('<rss version="2.0"><channel><item><title>b</title></item></channel></rss>');
    assert.match(
      none.diagnostics.find((d) => d.code === 'entry.no-id')?.message ?? '',
      /no entry has a guid or id/,
    );
  });
});

describe('diagnostics: JSON that is not valid', () => {
  it('locates an error the recovering reader lets pass (a trailing comma) where JSON.parse stopped', () => {
    const text = '{"version":"https://jsonfeed.org/version/1.1",\n "title":"x",\n "items":[{"id":"1",}]}';
    const result = parseFeed(text);
    const invalid = result.diagnostics.find((d) => d.code === 'json.invalid');
    assert.deepEqual([invalid?.line, invalid?.column], [3, 21]);
    assert.match(invalid?.message ?? '', /invalid JSON: Expected double-quoted property name$/);
    assert.equal(result.bozo, true);
    // and what was read is kept
    assert.deepEqual(
      result.entries.map((e) => e.id),
      ['1'],
    );
  });

  it('locates a document cut short at its end', () => {
    const text = '{"version":"https://jsonfeed.org/version/1.1",\n "items":[{"id":"1"}';
    const invalid = parseFeed(text).diagnostics.find((d) => d.code === 'json.invalid');
    assert.deepEqual([invalid?.line, invalid?.column], [2, 21]);
  });
});

describe('diagnostics: a bare ampersand', () => {
  it('is told once, as a bare "&", not also as an undefined entity named by what follows it', () => {
    const text =
      '<rss version="2.0"><channel><title>t</title><item><title>a & b &copy; c</title></item></channel></rss>';
    const result = parseFeed(text);
    const messages = result.diagnostics.filter((d) => d.code.startsWith('xml.')).map((d) => d.message);
    assert.deepEqual(messages, ['xml: a bare "&" (write &amp;)']);
    assert.equal(result.entries[0]?.title, 'a & b © c');
    // an entity no one defines is still named
    const bogus = parseFeed('<rss version="2.0"><channel><title>t &bogus; x</title></channel></rss>');
    assert.deepEqual(
      bogus.diagnostics.map((d) => d.message),
      ['xml: undefined entities &bogus; (kept as written)'],
    );
  });
});

describe('diagnostics: lines', () => {
  it('counts a lone CR as a line break, as XML does (old Mac files), and CR LF as one', () => {
    for (const eol of ['\r', '\r\n', '\n']) {
      const doc = [
        '<?xml version="1.0"?>',
        '<rss version="2.0"><channel><title>t</title>',
        '<item><guid>a</guid>',
        '<title>a & b</title></item>',
        '</channel></rss>',
      ].join(eol);
      const error = parseFeed(doc, { excerpts: true }).diagnostics.find(
        (d) => d.code === 'xml.not-well-formed',
      );
      assert.deepEqual([error?.line, error?.column], [4, 10], JSON.stringify(eol));
      assert.equal(error?.excerpt, '<title>a & b</title></item>');
    }
  });
});
