import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_ENTRIES, parseFeed } from './index.js';

function rss(n: number): string {
  let items = '';
  for (let i = 0; i < n; i++) items += `<item><guid>${i}</guid></item>`;
  return `<rss version="2.0"><channel><title>t</title>${items}</channel></rss>`;
}

function atom(n: number): string {
  let entries = '';
  for (let i = 0; i < n; i++) entries += `<entry><id>${i}</id></entry>`;
  return `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>${entries}</feed>`;
}

function json(n: number, pad = 0): string {
  const items = Array.from({ length: n }, (_, i) => ({ id: String(i), content_text: 'x'.repeat(pad) }));
  return JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', items, title: 'after the items' });
}

describe('parseFeed maxEntries', () => {
  for (const [name, make] of [
    ['RSS', rss],
    ['Atom', atom],
    ['JSON Feed', json],
    ['JSON Feed of more than 1 MiB', (n: number) => json(n, 300)],
    ['broken RSS', (n: number) => rss(n).replace('<title>t</title>', '<title>a & b</title>')],
  ] as const) {
    it(`keeps the first entries of ${name} and says how many there were`, () => {
      const result = parseFeed(make(4000), { maxEntries: 3 });
      assert.deepEqual(
        result.entries.map((e) => e.id),
        ['0', '1', '2'],
      );
      const truncated = result.diagnostics.filter((d) => d.code === 'entries.truncated');
      assert.equal(truncated.length, 1);
      assert.match(truncated[0]?.message ?? '', /has 4000 entries; only the first 3 were read/);
      if (name.startsWith('JSON')) assert.equal(result.feed.title, 'after the items');
    });
  }

  it(`keeps ${DEFAULT_MAX_ENTRIES} entries by default, and all of a document with fewer`, () => {
    assert.equal(parseFeed(rss(DEFAULT_MAX_ENTRIES + 1)).entries.length, DEFAULT_MAX_ENTRIES);
    const all = parseFeed(rss(10), { maxEntries: 10 });
    assert.equal(all.entries.length, 10);
    assert.ok(!all.diagnostics.some((d) => d.code === 'entries.truncated'));
  });
});

describe('parseFeed maxEntries and errors', () => {
  it('names no kept entry for an error in an entry past the limit, and the entry where it is kept', () => {
    const items = Array.from({ length: 8 }, (_, i) =>
      i === 6
        ? '<item><guid>6</guid><title>bad & </title><description>d</description></item>'
        : `<item><guid>${i}</guid><title>t${i}</title><description>d</description></item>`,
    ).join('');
    const xml = Buffer.from(`<rss version="2.0"><channel><title>t</title>${items}</channel></rss>`);
    const cut = parseFeed(xml, { maxEntries: 3 }).diagnostics.find((d) => d.code === 'xml.not-well-formed');
    assert.ok(cut?.column, 'located by line and column');
    assert.deepEqual([cut?.entry, cut?.field], [undefined, undefined]);
    const whole = parseFeed(xml).diagnostics.find((d) => d.code === 'xml.not-well-formed');
    assert.deepEqual([whole?.entry, whole?.field, whole?.column], [6, 'title', cut?.column]);
  });
});
