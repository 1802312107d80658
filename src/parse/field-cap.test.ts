import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatReport } from '../cli/parse-report.js';
import { utf8Bytes } from '../html/index.js';
import { MAX_CONTENT_BYTES, MAX_TITLE_BYTES } from './field-cap.js';
import { parseFeed } from './index.js';

function escapeXml(html: string): string {
  return html.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function rss(items: { title?: string; description?: string; content?: string }[], channel = ''): string {
  const body = items
    .map(
      (item, i) =>
        `<item><guid>g${i}</guid>${item.title ? `<title>${escapeXml(item.title)}</title>` : ''}${
          item.description ? `<description>${escapeXml(item.description)}</description>` : ''
        }${item.content ? `<content:encoded>${escapeXml(item.content)}</content:encoded>` : ''}</item>`,
    )
    .join('');
  return `<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>${channel}${body}</channel></rss>`;
}

const PARAGRAPH = '<p>A paragraph with <b>bold</b> text &amp; an emoji 😀.</p>';

describe('the cap on long fields', () => {
  it('cuts content over the default 1 MiB at an element boundary, with a diagnostic naming entry and field', () => {
    const long = PARAGRAPH.repeat(Math.ceil((1.5 * MAX_CONTENT_BYTES) / utf8Bytes(PARAGRAPH)));
    const result = parseFeed(rss([{ content: '<p>short</p>' }, { content: long, description: 'a summary' }]));
    const kept = result.entries[1]?.content?.[0]?.value ?? '';
    assert.ok(utf8Bytes(kept) <= MAX_CONTENT_BYTES);
    assert.ok(utf8Bytes(kept) > MAX_CONTENT_BYTES - utf8Bytes(PARAGRAPH));
    assert.match(kept, /<\/p>$/);
    // the document up to an element boundary, then the end tags of what was open there
    assert.ok(long.startsWith(kept.replace(/(?:<\/\w+>)+$/, '')));
    assert.equal(result.entries[0]?.content?.[0]?.value, '<p>short</p>');
    assert.equal(result.entries[1]?.summary, 'a summary');
    const cut = result.diagnostics.filter((d) => d.code === 'field.too-long');
    assert.equal(cut.length, 1);
    assert.equal(cut[0]?.entry, 1);
    assert.equal(cut[0]?.field, 'content');
    assert.equal(cut[0]?.severity, 'warning');
    assert.match(cut[0]?.message ?? '', /the content of entry 1 is 1\.5 MiB, over the limit of 1 MiB/);
    // what `tidings parse` prints
    assert.match(
      formatReport('feed.xml', result),
      /warning field\.too-long \(entry 1, <content>\): parse: the content of entry 1/,
    );
  });

  it('gives the summary that stands for missing content the cut value, with one diagnostic', () => {
    const result = parseFeed(rss([{ description: PARAGRAPH.repeat(100) }]), { maxContentBytes: 1000 });
    const entry = result.entries[0];
    assert.ok(utf8Bytes(entry?.summary ?? '') <= 1000);
    assert.equal(entry?.summaryDetail?.value, entry?.summary);
    assert.deepEqual(
      result.diagnostics.filter((d) => d.code === 'field.too-long').map((d) => [d.entry, d.field]),
      [[0, 'summary']],
    );
  });

  it('reports a field cut in many entries once, with how many and the first', () => {
    const items = Array.from({ length: 8 }, (_, i) => ({
      content: i % 2 ? PARAGRAPH.repeat(50) : PARAGRAPH,
    }));
    const result = parseFeed(rss(items), { maxContentBytes: 500 });
    const cut = result.diagnostics.filter((d) => d.code === 'field.too-long');
    assert.equal(cut.length, 1);
    assert.equal(cut[0]?.entry, 1);
    assert.match(cut[0]?.message ?? '', /the content of 4 entries \(entries 1, 3, 5, 7\)/);
    for (const entry of result.entries) assert.ok(utf8Bytes(entry.content?.[0]?.value ?? '') <= 500);
  });

  it('cuts titles to 8 KiB, and a feed subtitle like content', () => {
    const title = 'word '.repeat(MAX_TITLE_BYTES / 4);
    const result = parseFeed(rss([{ title }], `<description>${'long '.repeat(400)}</description>`), {
      maxContentBytes: 1000,
    });
    const kept = result.entries[0]?.title ?? '';
    assert.ok(utf8Bytes(kept) <= MAX_TITLE_BYTES && kept.length > MAX_TITLE_BYTES - 10);
    assert.equal(result.entries[0]?.titleDetail?.value, kept);
    assert.ok(utf8Bytes(result.feed.subtitle ?? '') <= 1000);
    assert.equal(result.feed.subtitleDetail?.value, result.feed.subtitle);
    const cut = result.diagnostics.filter((d) => d.code === 'field.too-long');
    assert.deepEqual(
      cut.map((d) => [d.entry, d.field]),
      [
        [undefined, 'subtitle'],
        [0, 'title'],
      ],
    );
  });

  it('cuts JSON Feed content_text as text, at a space', () => {
    const doc = {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      items: [{ id: '1', content_text: 'plain words '.repeat(200), content_html: PARAGRAPH.repeat(40) }],
    };
    const result = parseFeed(JSON.stringify(doc), { maxContentBytes: 300 });
    const [html, text] = result.entries[0]?.content ?? [];
    assert.ok(utf8Bytes(text?.value ?? '') <= 300);
    assert.match(text?.value ?? '', /words$/);
    assert.match(html?.value ?? '', /^<p>.*<\/p>$/);
    assert.ok(utf8Bytes(html?.value ?? '') <= 300);
  });

  it('leaves a document whose fields fit alone', () => {
    const result = parseFeed(rss([{ title: 'T', content: PARAGRAPH }]));
    assert.equal(result.entries[0]?.content?.[0]?.value, PARAGRAPH);
    assert.ok(!result.diagnostics.some((d) => d.code === 'field.too-long'));
  });
});
