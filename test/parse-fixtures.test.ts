// The parser corpus: test/fixtures/<area>/<case>.(xml|json|html) with <case>.expected.json beside it
// (and optionally <case>.options.json, the HTTP facts: contentType, baseUrl, contentLanguage).
// Expected files list what matters: objects match on the keys they name, arrays element by element
// with the same length, except `diagnostics`, whose expected items must appear in order among the
// actual ones (other diagnostics may come between).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseFeed } from '../src/parse/index.js';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

function matches(actual: unknown, expected: unknown, path: string, problems: string[]): void {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      problems.push(`${path}: expected an array, got ${JSON.stringify(actual)}`);
      return;
    }
    if (path.endsWith('.diagnostics')) {
      let from = 0;
      for (const [i, want] of expected.entries()) {
        const found = actual.findIndex((got, j) => j >= from && matchOk(got, want, `${path}[${j}]`));
        if (found < 0)
          problems.push(
            `${path}: no diagnostic like ${JSON.stringify(want)} (item ${i}) in ${JSON.stringify(actual)}`,
          );
        else from = found + 1;
      }
      return;
    }
    if (actual.length !== expected.length)
      problems.push(`${path}: expected ${expected.length} items, got ${actual.length}`);
    for (const [i, want] of expected.entries()) matches(actual[i], want, `${path}[${i}]`, problems);
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') {
      problems.push(`${path}: expected an object, got ${JSON.stringify(actual)}`);
      return;
    }
    for (const [key, want] of Object.entries(expected)) {
      matches((actual as Record<string, unknown>)[key], want, `${path}.${key}`, problems);
    }
    return;
  }
  if (actual !== expected)
    problems.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function matchOk(actual: unknown, expected: unknown, path: string): boolean {
  const problems: string[] = [];
  matches(actual, expected, path, problems);
  return problems.length === 0;
}

for (const area of readdirSync(FIXTURES).sort()) {
  describe(`fixtures/${area}`, () => {
    for (const name of readdirSync(join(FIXTURES, area)).sort()) {
      const match = /^(.*)\.(xml|json|html|rss|atom)$/.exec(name);
      if (!match || name.endsWith('.expected.json') || name.endsWith('.options.json')) continue;
      const base = join(FIXTURES, area, match[1] as string);
      it(`reads ${area}/${name} as expected`, () => {
        const expected: unknown = JSON.parse(readFileSync(`${base}.expected.json`, 'utf8'));
        let options = {};
        try {
          options = JSON.parse(readFileSync(`${base}.options.json`, 'utf8'));
        } catch {
          // no options: a local file, no HTTP headers
        }
        const result = parseFeed(new Uint8Array(readFileSync(join(FIXTURES, area, name))), options);
        const problems: string[] = [];
        matches(result, expected, name, problems);
        assert.deepEqual(problems, [], JSON.stringify(result, null, 2).slice(0, 4000));
      });
    }
  });
}
