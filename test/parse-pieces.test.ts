// The strict XML pass reads a UTF-8 document in pieces (src/parse/document-text.ts). Reading it in
// pieces of a few bytes, so that every kind of markup, reference, line break and multi-byte character
// is cut somewhere, must give the tree, the offsets and the diagnostics that reading it whole gives:
// over our fixtures, the perf corpus and the Universal Feed Parser's corpus.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ParseContext } from '../src/parse/context.js';
import { DiagnosticList, LineIndex } from '../src/parse/diagnostics.js';
import { DocumentText } from '../src/parse/document-text.js';
import { readXmlTree } from '../src/parse/xml/read-tree.js';
import type { XmlNode } from '../src/parse/xml/tree.js';
import { SHARED_DIR } from './helpers/shared.js';

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
  const ctx: ParseContext = { diagnostics, version: '', bareIsAtom: false, entryIndex: undefined };
  const tree = readXmlTree(ctx, source, 256);
  return { root: plain(tree.doc.root), bozoReason: tree.bozoReason, diagnostics: diagnostics.items };
}

/** Documents that decode as UTF-8 without a byte-order mark: the ones the parser reads in pieces. */
function utf8Documents(dir: string): { file: string; bytes: Uint8Array }[] {
  return listXml(dir)
    .map((file) => ({ file, bytes: new Uint8Array(readFileSync(file)) }))
    .filter(({ bytes }) => isUtf8(bytes) && !(bytes[0] === 0xef && bytes[1] === 0xbb));
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

describe('reading a document in pieces', () => {
  it('gives what reading it whole gives: our fixtures', () => {
    const count = assertSameInPieces(new URL('./fixtures/', import.meta.url).pathname, 5);
    assert.ok(count >= 5, `${count} fixtures`);
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
    it(`gives what reading it whole gives: ${name}`, (t) => {
      if (SHARED_DIR === undefined) {
        t.skip('../shared is not there (set TIDINGS_SHARED_DIR)');
        return;
      }
      const count = assertSameInPieces(join(SHARED_DIR, path), pieceBytes);
      assert.ok(count >= least, `${count} documents`);
    });
  }
});
