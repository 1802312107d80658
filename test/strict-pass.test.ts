// The strict XML pass reads a UTF-8 document in pieces (src/parse/text/document-text.ts), and builds its
// tree from saxes's events (src/parse/xml/strict.ts, builder.ts). Over our fixtures, the perf corpus and
// the Universal Feed Parser's corpus:
// - reading a document in pieces of a few bytes, so that every kind of markup, reference, line break and
//   multi-byte character is cut somewhere, gives the tree, offsets and diagnostics that reading it whole gives;
// - the tree holds what saxes reports, element by element and text by text, and the first error is
//   the one saxes reports, where it reports it.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DiagnosticList, LineIndex } from '../src/parse/diagnostics.js';
import { loadSaxes } from '../src/parse/lazy-imports.js';
import { DocumentText } from '../src/parse/text/document-text.js';
import { readDoctype } from '../src/parse/xml/doctype.js';
import { type EntityUse, withEntityTable } from '../src/parse/xml/entities.js';
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

/** The strict pass's tree as plain data (names, offsets, attributes, text), and its first error. */
function strictPass(text: string): unknown {
  const strict = parseStrict(text, readDoctype(text), { maxDepth: 256 });
  const bare = (node: XmlNode): unknown => {
    if (!('local' in node)) return node.cdata ? { cdata: node.text } : node.text;
    return [node.name, node.offset, { ...node.attrs }, node.children.map(bare)];
  };
  return {
    root: strict.doc.root && bare(strict.doc.root),
    error: strict.error && { message: strict.error.message, offset: strict.error.offset },
  };
}

// saxes reports these and reads on; the strict pass does the same (strict.ts)
const SOFT_ERRORS = /undefined entity|unbound namespace prefix|attribute .* is a duplicate/i;

/** What saxes's own events say of a document, in strictPass's shape: the tree the strict pass must build. */
function saxesReport(text: string): unknown {
  type Node = [string, number, Record<string, string>, unknown[]];
  const parser = new (loadSaxes().SaxesParser)({ position: true });
  const open: Node[] = [];
  let root: Node | undefined;
  let tagOffset = 0;
  let error: { message: string; offset: number } | undefined;
  const addText = (piece: string, cdata: boolean): void => {
    const children = open[open.length - 1]?.[3];
    if (children === undefined) return; // outside the root element
    const last = children[children.length - 1];
    if (!cdata && typeof last === 'string') children[children.length - 1] = last + piece;
    else children.push(cdata ? { cdata: piece } : piece);
  };
  parser.on('opentagstart', () => {
    tagOffset = parser.position;
  });
  parser.on('opentag', (tag) => {
    const node: Node = [tag.name, tagOffset, { ...(tag.attributes as Record<string, string>) }, []];
    const parent = open[open.length - 1];
    if (parent) parent[3].push(node);
    else if (root) return;
    else root = node;
    open.push(node);
  });
  parser.on('closetag', () => open.pop());
  parser.on('text', (t) => addText(t, false));
  parser.on('cdata', (t) => addText(t, true));
  parser.on('error', (err) => {
    if (error || SOFT_ERRORS.test(err.message)) return;
    error = { message: err.message.replace(/^\d+:\d+: /, ''), offset: parser.position };
    throw err;
  });
  const use: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
  try {
    withEntityTable(readDoctype(text)?.entities, use, (table) => {
      parser.ENTITIES = table;
      parser.write(text).close();
    });
  } catch (err) {
    if (!error) throw err;
  }
  return { root, error };
}

function assertSameAsSaxes(dir: string): number {
  const documents = listXml(dir);
  for (const file of documents) {
    const text = new TextDecoder().decode(readFileSync(file));
    assert.deepEqual(strictPass(text), saxesReport(text), `${file}: the strict pass and saxes's events`);
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

  it('builds the tree saxes reports: our fixtures', () => {
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

    it(`builds the tree saxes reports: ${name}`, { skip: SHARED_SKIP }, () => {
      const count = assertSameAsSaxes(join(SHARED_DIR ?? '', path));
      assert.ok(count >= least, `${count} documents`);
    });
  }
});
