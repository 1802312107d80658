// The strict XML pass reads a UTF-8 document in pieces (src/parse/document-text.ts), and decodes
// character data with its own loop in place of saxes's (src/parse/xml/saxes-text.ts). Over our
// fixtures, the perf corpus and the Universal Feed Parser's corpus:
// - reading a document in pieces of a few bytes, so that every kind of markup, reference, line break and
//   multi-byte character is cut somewhere, gives the tree, offsets and diagnostics that reading it whole gives;
// - our loop gives the tree, the first error and its offset, and the entity use that saxes's own gives.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DiagnosticList, LineIndex } from '../src/parse/diagnostics.js';
import { loadSaxes } from '../src/parse/lazy-imports.js';
import { DocumentText } from '../src/parse/text/document-text.js';
import { readDoctype } from '../src/parse/xml/doctype.js';
import { readXmlTree } from '../src/parse/xml/read-tree.js';
import { parseStrict } from '../src/parse/xml/strict.js';
import type { XmlNode } from '../src/parse/xml/tree.js';
import { SHARED_DIR, SHARED_SKIP } from './helpers/shared.js';

function listXml(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listXml(path, out);
    else if (/\.(xml|rss|atom|rdf)$/.test(name)) out.push(path);
  }
  return out;
}

/** The tree as plain data: names, namespaces, attributes, offsets, text, without parent links. */
function plain(node: XmlNode | undefined): unknown {
  if (node === undefined) return undefined;
  if (!('local' in node)) return node.cdata ? { cdata: node.text } : node.text;
  return [node.name, node.ns, node.offset, node.attrs, node.children.map(plain)];
}

function read(source: DocumentText): unknown {
  const diagnostics = new DiagnosticList(new LineIndex(source));
  const tree = readXmlTree(diagnostics, source, { maxDepth: 256, maxEntries: Number.POSITIVE_INFINITY });
  return { root: plain(tree.doc.root), bozoReason: tree.bozoReason, diagnostics: diagnostics.items };
}

/** Documents that decode as UTF-8 without a byte-order mark: the ones the parser reads in pieces. */
function utf8Documents(dir: string): { file: string; bytes: Uint8Array }[] {
  return listXml(dir)
    .map((file) => ({ file, bytes: new Uint8Array(readFileSync(file)) }))
    .filter(({ bytes }) => isUtf8(bytes) && !(bytes[0] === 0xef && bytes[1] === 0xbb));
}

/** The strict pass's findings, with our text loop or saxes's own. */
function strictPass(text: string, withSaxesLoop: boolean): unknown {
  const Parser = withSaxesLoop ? loadSaxes().SaxesParser : undefined;
  const strict = parseStrict(text, readDoctype(text), { maxDepth: 256 }, Parser);
  return {
    root: plain(strict.doc.root),
    error: strict.error && { message: strict.error.message, offset: strict.error.offset },
    entityUse: strict.entityUse,
    unboundPrefixes: strict.unboundPrefixes,
  };
}

function assertSameAsSaxes(dir: string): number {
  const documents = listXml(dir);
  for (const file of documents) {
    const text = new TextDecoder().decode(readFileSync(file));
    assert.deepEqual(strictPass(text, false), strictPass(text, true), `${file}: our text loop and saxes's`);
  }
  return documents.length;
}

function assertSameInPieces(dir: string, pieceBytes: number): number {
  const documents = utf8Documents(dir);
  for (const { file, bytes } of documents) {
    const whole = read(DocumentText.of(new TextDecoder().decode(bytes)));
    const inPieces = read(DocumentText.fromUtf8(bytes, pieceBytes));
    assert.deepEqual(inPieces, whole, `${file} read in pieces of ${pieceBytes} bytes`);
  }
  return documents.length;
}

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

describe('the strict pass', () => {
  it('reads a document in pieces as it reads it whole: our fixtures', () => {
    const count = assertSameInPieces(FIXTURES, 5);
    assert.ok(count >= 5, `${count} fixtures`);
  });

  it("decodes character data as saxes's own loop does: our fixtures", () => {
    const count = assertSameAsSaxes(FIXTURES);
    assert.ok(count >= 10, `${count} fixtures`);
  });

  const corpora = [
    { name: 'the perf corpus', path: 'perf/corpus', pieceBytes: 61, least: 60 },
    {
      name: "the Universal Feed Parser's corpus",
      path: 'conformance/feedparser',
      pieceBytes: 7,
      least: 1500,
    },
  ];
  for (const { name, path, pieceBytes, least } of corpora) {
    it(`reads a document in pieces as it reads it whole: ${name}`, { skip: SHARED_SKIP }, () => {
      const count = assertSameInPieces(join(SHARED_DIR ?? '', path), pieceBytes);
      assert.ok(count >= least, `${count} documents`);
    });

    it(`decodes character data as saxes's own loop does: ${name}`, { skip: SHARED_SKIP }, () => {
      const count = assertSameAsSaxes(join(SHARED_DIR ?? '', path));
      assert.ok(count >= least, `${count} documents`);
    });
  }
});
