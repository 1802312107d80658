import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TimelineEntry } from '../../store/index.js';
import { snippetOf } from './entry-row.js';

/** The snippet as defined: the whole text cleaned, its whitespace collapsed, cut at 160 characters. */
function reference(entry: Partial<TimelineEntry>): string {
  const text =
    entry.summary ??
    entry.contentText ??
    entry.contentHtml?.replace(/<[^>]*>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ') ??
    '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

const entry = (fields: Partial<TimelineEntry>) => ({ extra: {}, ...fields }) as TimelineEntry;

describe('list snippets', () => {
  it('reads only the start of a long text, and gives what cleaning the whole text gives', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' \n\t ');
    const cases: Partial<TimelineEntry>[] = [
      { summary: words(3) },
      { summary: words(2000) },
      { contentText: ' '.repeat(5000) + words(40) },
      { contentHtml: `<p>${words(1000)}</p>` },
      // a tag cut by the start's end: its attributes never show
      { contentHtml: `<p>${words(5)}<img src="data:${'x'.repeat(4000)}"> ${words(60)}</p>` },
      { contentHtml: `<p>${words(5)} ${'&amp; '.repeat(400)}${words(60)}</p>` },
      { contentHtml: `${'<b></b>'.repeat(600)}${words(60)}` },
      // a reference or a tag across the end of the start that is read first (640 characters)
      ...[630, 636, 638, 639, 640, 2040].flatMap((at) => [
        { contentHtml: `${'a '.repeat(at / 2)}&amp;${words(60)}` },
        { contentHtml: `${' '.repeat(at)}<a href="${'y'.repeat(100)}">${words(60)}</a>` },
        { contentHtml: `${'ab '.repeat(at / 3)}<i>${words(60)}</i>` },
      ]),
    ];
    for (const fields of cases) assert.equal(snippetOf(entry(fields)), reference(fields));
  });
});
