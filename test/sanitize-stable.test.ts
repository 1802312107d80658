// Issue 12, mutation XSS: the sanitizer's output must parse back to the tree it meant. For every HTML
// text of our fixtures, of the perf corpus (../shared/perf/corpus, 74 real feeds) and of the Universal
// Feed Parser's corpus (../shared/conformance/feedparser, thousands of small hostile and odd documents),
// sanitizing the output again gives the same tree, and nothing active is in it.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sanitizeHtml } from '../src/html/index.js';
import type { Text } from '../src/model/feed.js';
import { parseFeed } from '../src/parse/index.js';
import { findActiveContent, treeOf } from './helpers/hostile-html.js';
import { SHARED_DIR } from './helpers/shared.js';

const FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));
const FEED_FILE_RE = /\.(?:xml|rss|atom|rdf|json)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return filesUnder(path);
      return FEED_FILE_RE.test(name) && !name.endsWith('.expected.json') ? [path] : [];
    });
}

/** Every HTML text construct in a parse result (Text objects of an HTML type). */
function htmlTexts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) htmlTexts(item, out);
  else if (value !== null && typeof value === 'object') {
    const text = value as Partial<Text>;
    if (
      typeof text.value === 'string' &&
      (text.type === 'text/html' || text.type === 'application/xhtml+xml')
    )
      out.push(text.value);
    else for (const child of Object.values(value)) htmlTexts(child, out);
  }
  return out;
}

/** Checks each HTML text of each file; returns how many texts were checked. */
function checkFiles(files: string[]): number {
  let checked = 0;
  const failures: string[] = [];
  for (const file of files) {
    const result = parseFeed(readFileSync(file), { baseUrl: 'https://feed.example/' });
    for (const html of htmlTexts({ feed: result.feed, entries: result.entries })) {
      checked++;
      const active = findActiveContent(html);
      if (active.length > 0) failures.push(`${file}: active ${active.join(', ')}`);
      else if (treeOf(sanitizeHtml(html)) !== treeOf(html))
        failures.push(`${file}: a new tree when sanitized again: ${html.slice(0, 300)}`);
    }
  }
  assert.deepEqual(failures, []);
  return checked;
}

describe('sanitized HTML is stable when sanitized again', () => {
  it('on every HTML text of test/fixtures', (t) => {
    const checked = checkFiles(filesUnder(FIXTURES));
    t.diagnostic(`${checked} HTML texts`);
  });

  it('on every HTML text of the perf corpus', { skip: SHARED_DIR === undefined && 'no ../shared' }, (t) => {
    const checked = checkFiles(filesUnder(join(SHARED_DIR ?? '', 'perf', 'corpus')));
    t.diagnostic(`${checked} HTML texts`);
    assert.ok(checked > 1000);
  });

  it("on every HTML text of the Universal Feed Parser's corpus", {
    skip: SHARED_DIR === undefined && 'no ../shared',
  }, (t) => {
    const checked = checkFiles(filesUnder(join(SHARED_DIR ?? '', 'conformance', 'feedparser')));
    t.diagnostic(`${checked} HTML texts`);
    assert.ok(checked > 1000);
  });
});
