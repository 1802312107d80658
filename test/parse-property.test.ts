// Property: parseFeed never throws, whatever the bytes, and never returns a C0 control character (other
// than tab, line feed, carriage return) or a lone surrogate in any string (issue 12). Generated inputs:
// random bytes, real documents (test/fixtures and ../shared/perf/corpus) mutated, and documents that use
// Object.prototype's member names as element names, prefixes, attribute names and JSON keys.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { parseFeed } from '../src/parse/index.js';
import { SHARED_DIR } from './helpers/shared.js';

const SEED = 12;
const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDFFF]/u;
const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'];
const MAX_DOCUMENT_BYTES = 120_000;

/** Every string in a value (object keys too) that holds an unwanted character, with its path. */
function unwantedStrings(value: unknown, path = '$', found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (UNWANTED.test(value)) found.push(`${path}: ${JSON.stringify(value.slice(0, 80))}`);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (UNWANTED.test(key)) found.push(`${path} key ${JSON.stringify(key)}`);
      unwantedStrings((value as Record<string, unknown>)[key], `${path}.${key}`, found);
    }
  }
  return found;
}

function checkParse(input: Uint8Array | string, options: { contentType?: string } = {}): void {
  const result = parseFeed(input, options);
  assert.deepEqual(unwantedStrings(result), []);
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (!name.endsWith('.expected.json') && !name.endsWith('.options.json')) out.push(path);
  }
  return out;
}

function realDocuments(): Uint8Array[] {
  const dirs = [fileURLToPath(new URL('./fixtures', import.meta.url))];
  if (SHARED_DIR) dirs.push(join(SHARED_DIR, 'perf', 'corpus'));
  return dirs
    .flatMap((dir) => filesUnder(dir))
    .map((file) => readFileSync(file))
    .filter((bytes) => bytes.byteLength <= MAX_DOCUMENT_BYTES)
    .map((bytes) => new Uint8Array(bytes));
}

const encoder = new TextEncoder();
const INSERTIONS = [
  '<',
  '&',
  ']]>',
  '\u0000',
  '\u0001\u001f',
  '\\ud800',
  '\\udc00x',
  '\\u0000',
  '&#0;',
  '&#xD800;',
  '<![CDATA[',
  '<!--',
  '</item>',
  '<item>',
  '"__proto__":{"a":1},',
  '"constructor":[1],',
  ...PROTO_NAMES.flatMap((n) => [`<${n}>`, `</${n}>`, ` ${n}="x"`, ` xmlns:${n}="u"`, `<${n}:a>`, `&${n};`]),
];

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'delete'; at: number; length: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...INSERTIONS) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat(64) }),
);

function mutate(bytes: Uint8Array, mutations: Mutation[]): Uint8Array {
  let out = bytes;
  for (const m of mutations) {
    const at = out.byteLength === 0 ? 0 : m.at % out.byteLength;
    if (m.kind === 'flip') {
      out = out.slice();
      if (out.byteLength > 0) out[at] = (out[at] as number) ^ (1 << m.bit);
    } else if (m.kind === 'insert') {
      const text = encoder.encode(m.text);
      const next = new Uint8Array(out.byteLength + text.byteLength);
      next.set(out.subarray(0, at));
      next.set(text, at);
      next.set(out.subarray(at), at + text.byteLength);
      out = next;
    } else if (m.kind === 'truncate') out = out.slice(0, at);
    else {
      const next = new Uint8Array(out.byteLength - Math.min(m.length, out.byteLength - at));
      next.set(out.subarray(0, at));
      next.set(out.subarray(at + m.length), at);
      out = next;
    }
  }
  return out;
}

const protoName = fc.oneof(fc.constantFrom(...PROTO_NAMES), fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/));

describe('parseFeed on any input', () => {
  it('never throws nor returns control characters for random bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2_000 }),
        fc.constantFrom(undefined, 'text/xml; charset=utf-16'),
        (bytes, type) => checkParse(bytes, type ? { contentType: type } : {}),
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('never throws nor returns control characters for random text after a feed start', () => {
    const start = fc.constantFrom(
      '<rss version="2.0"><channel><item><title>',
      '{"version":"https://jsonfeed.org/version/1.1","items":[{"title":"',
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>',
    );
    fc.assert(
      fc.property(start, fc.string({ unit: 'binary', maxLength: 300 }), (head, tail) =>
        checkParse(head + tail),
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  const documents = realDocuments();
  if (!SHARED_DIR) console.log('# parse-property: ../shared is absent: mutating test/fixtures only');

  it(`never throws nor returns control characters for ${documents.length} real documents, mutated`, () => {
    fc.assert(
      fc.property(
        fc.nat(documents.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        (index, mutations) => checkParse(mutate(documents[index] as Uint8Array, mutations)),
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('reads documents that use Object.prototype member names as names and keys', () => {
    fc.assert(
      fc.property(protoName, protoName, protoName, protoName, (element, prefix, attribute, key) => {
        const xml =
          `<rss version="2.0" xmlns:${prefix}="urn:${prefix}"><channel><${element}>x</${element}><${prefix}:${element}/>` +
          `<item ${attribute}="1"><title ${prefix}:${attribute}="2">a</title><${prefix}:${element}>b</${prefix}:${element}>` +
          `<guid>${key}</guid></item><item><title>${key}</title><${prefix}:x/></item></channel></rss>`;
        for (const doc of [xml, xml.replace(`xmlns:${prefix}="urn:${prefix}"`, '')]) {
          const result = parseFeed(doc);
          assert.deepEqual(
            result.entries.map((e) => e.title),
            ['a', key],
          );
          assert.ok(!result.diagnostics.some((d) => d.code === 'entry.unreadable'));
        }
        const json = `{"version":"https://jsonfeed.org/version/1.1","${key}":{"${prefix}":1},"title":"t","items":[{"id":"${key}","${key}":[1],"_${element}":{"${attribute}":2}},{"id":"2","title":"${element}"}]}`;
        const jsonResult = parseFeed(json);
        assert.equal(jsonResult.entries.length, 2);
        assert.equal(jsonResult.entries[0]?.id, key);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});
