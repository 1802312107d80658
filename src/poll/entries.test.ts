import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../model/diagnostic.js';
import { parseFeed } from '../parse/index.js';
import { identifyEntries, toNewEntry } from './entries.js';

function urlsOf(items: string): (string | undefined)[] {
  const doc = `<rss version="2.0"><channel><title>t</title>${items}</channel></rss>`;
  const { entries } = parseFeed(doc, { baseUrl: 'https://example.org/feed.xml' });
  const diagnostics: Diagnostic[] = [];
  return identifyEntries(entries, diagnostics).map(
    (item) => toNewEntry(item, new Date(), diagnostics, false).url,
  );
}

describe('toNewEntry: the entry link', () => {
  it('takes a guid as the link when it is a URL or a path from the root', () => {
    assert.deepEqual(
      urlsOf(
        '<item><guid>https://example.org/a</guid></item><item><guid>/2026/11/b</guid></item>' +
          '<item><guid isPermaLink="false">https://example.org/c</guid><link>https://example.org/c.html</link></item>',
      ),
      ['https://example.org/a', 'https://example.org/2026/11/b', 'https://example.org/c.html'],
    );
  });

  it('gives no link when the only candidate is a guid that is no URL', () => {
    assert.deepEqual(urlsOf('<item><guid>post-1234</guid><title>x</title></item>'), [undefined]);
  });
});
