// Issue 22, "1 diagnostics": every count the CLI, the web UI and the poller's messages print goes through
// plural() (src/model/plural.ts) or the web's count(), so that one thing is never named in the plural.
// This walks the source for a number put straight before a plural noun (`${n} entries`, `{n} feeds`).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { plural } from '../src/model/plural.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

const NOUNS =
  'entries|feeds|diagnostics|polls|items|outlines|channels|subscriptions|tokens|errors|failures|minutes|hours|days|seconds|lines|rows|problems|warnings|attempts|requests';
// `${expr} noun` or `{expr} noun` (JSX), with up to one adjective between: `${n} new entries`
const COUNT_BEFORE_NOUN = new RegExp(`(\\$?\\{([^{}]+)\\})\\s+(?:[a-z]+\\s+)?(?:${NOUNS})\\b(?!=)`, 'g');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
}

/** An interpolation that is no count: a constant of many (`${MAX_BODY_BYTES} bytes`), or not a number at all. */
function isNoCount(expression: string): boolean {
  const e = expression.trim();
  if (/^[A-Z][A-Z0-9_]*$/.test(e)) return true; // constants, all above 1
  if (/^' '$/.test(e)) return true; // JSX {' '}
  return /\b(?:name|url|title|label|id|uid|ref|what|who|where|kind|status|channel|feed\.id)\b/i.test(e);
}

describe('counts in words', () => {
  it('puts no number straight before a plural noun anywhere in src/', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (line.trim().startsWith('//') || line.trim().startsWith('*')) return;
        for (const match of line.matchAll(COUNT_BEFORE_NOUN)) {
          if (isNoCount(match[2] as string)) continue;
          found.push(`${file.slice(SRC.length)}:${i + 1}: ${match[0]}`);
        }
      });
    }
    assert.deepEqual(found, []);
  });

  it('names one thing in the singular and anything else in the plural', () => {
    assert.equal(plural(1, 'diagnostic'), '1 diagnostic');
    assert.equal(plural(0, 'diagnostic'), '0 diagnostics');
    assert.equal(plural(2, 'entry', 'entries'), '2 entries');
  });
});
