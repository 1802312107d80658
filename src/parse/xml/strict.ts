import type { SaxesParser, SaxesTag } from 'saxes';
import { keepShape } from '../../html/index.js';
import { loadSaxes } from '../lazy-imports.js';
import { DocumentText } from '../text/index.js';
import { MAX_ATTRIBUTES, setOwn, TreeBuilder, type TreeLimits } from './builder.js';
import type { Doctype } from './doctype.js';
import { type EntityUse, withEntityTable } from './entities.js';
import type { XmlDocument, XmlElement } from './tree.js';

// saxes is used through its public API only: events, `position` and the ENTITIES table. Two things it
// does cost more than they would in a parser of our own, and are accepted for that:
// - it builds character data with one `+=` per reference, so escaped HTML is a rope of V8 cons strings
//   while it is read (the tree builder flattens each text node as it arrives). bench:parse's corpus
//   allocates 104 MB per pass instead of the 91 MB it did with our own text loop, yakubin.atom (0.9 MB
//   of escaped HTML) 18 MB per parse instead of 9.4; peak memory and speed are the same.
// - it keeps every attribute of an element in one object, which V8 turns into a slow dictionary past a
//   few thousand: one element with 512,000 attributes (9 MB) takes 0.9-1.5 s instead of 65-90 ms, one
//   of 1.1 million (a 20 MiB body, the most a fetch takes) 2.8 s. The tree keeps the first
//   MAX_ATTRIBUTES of them (keepFirstAttributes), and the time stays linear in the size.
// Until issue 23 a subclass replaced saxes 6.0.0's private text loop and attribute list; it tied us to
// one version's internals, checked at load.

/** The first well-formedness error of a document, where the strict parser found it. */
export interface XmlError {
  message: string;
  /** String index into the document. */
  offset: number;
  /** The elements open at the error, outermost first. */
  openElements: XmlElement[];
}

export interface StrictResult {
  doc: XmlDocument;
  /** The first error that breaks the document's structure; undefined when well-formed. */
  error: XmlError | undefined;
  entityUse: EntityUse;
  unboundPrefixes: { prefix: string; offset: number }[];
  tooDeepAt: number | undefined;
  /** Attributes past MAX_ATTRIBUTES per element, and where the first such element starts. */
  droppedAttributes: { count: number; offset: number } | undefined;
}

// saxes reports these and carries on with an intact tree; the document is still not well-formed.
const SOFT_ERRORS = /undefined entity|unbound namespace prefix|attribute .* is a duplicate/i;

/**
 * Parses a document as well-formed XML (saxes), building the tree; stops at the first hard error.
 * The text is read from `limits.offsetBase` on, in pieces when it is not one string (document-text.ts).
 */
export function parseStrict(
  input: DocumentText | string,
  doctype: Doctype | undefined,
  limits: TreeLimits,
): StrictResult {
  const source = typeof input === 'string' ? DocumentText.of(input) : input;
  const builder = new TreeBuilder(limits);
  const entityUse: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
  let error: XmlError | undefined;
  const externalDtd = doctype !== undefined && /\b(SYSTEM|PUBLIC)\b/.test(doctype.text.split('[')[0] ?? '');
  let tagOffset = 0;
  let dropped: { count: number; offset: number } | undefined;
  const parser: SaxesParser = newParser({
    opentagstart: () => {
      tagOffset = parser.position;
    },
    opentag: (tag) => {
      const attributes = tag.attributes as Record<string, string>;
      const kept = keepFirstAttributes(attributes);
      if (kept !== attributes) {
        dropped ??= { count: 0, offset: tagOffset + (limits.offsetBase ?? 0) };
        dropped.count += Object.keys(attributes).length - MAX_ATTRIBUTES;
      }
      builder.open(tag.name, kept, tagOffset);
    },
    closetag: () => builder.close(),
    text: (t) => builder.text(t, false),
    cdata: (t) => builder.text(t, true),
    error: (err) => {
      if (error || SOFT_ERRORS.test(err.message)) return;
      error = {
        message: err.message.replace(/^\d+:\d+: /, ''),
        offset: parser.position + (limits.offsetBase ?? 0),
        openElements: [...builder.openElements],
      };
      throw err; // stop: the tolerant pass takes over
    },
  });
  // saxes makes an Error for every soft error (each undefined entity reference): without stack traces,
  // which nobody reads, a document of 32,000 undefined references parses in half the time
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    withEntityTable(doctype?.entities, entityUse, (table) => {
      parser.ENTITIES = table;
      source.pieces(limits.offsetBase ?? 0, (piece) => parser.write(piece));
      parser.close();
    });
  } catch (err) {
    if (!error) throw err;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  if (externalDtd) {
    // an external DTD may declare them
    entityUse.undefinedNames.length = 0;
    entityUse.unknownNames.length = 0;
  }
  return {
    doc: builder.doc,
    error,
    entityUse,
    unboundPrefixes: builder.unboundPrefixes,
    tooDeepAt: builder.tooDeepAt,
    droppedAttributes: dropped,
  };
}

interface ParserEvents {
  opentagstart: () => void;
  opentag: (tag: SaxesTag) => void;
  closetag: () => void;
  text: (text: string) => void;
  cdata: (text: string) => void;
  error: (err: Error) => void;
}

/**
 * The attributes an element keeps: all of them, the same object, when there are at most MAX_ATTRIBUTES;
 * else a new record of the first MAX_ATTRIBUTES in document order.
 */
function keepFirstAttributes(attributes: Record<string, string>): Record<string, string> {
  let count = 0;
  for (const _ in attributes) if (++count > MAX_ATTRIBUTES) break;
  if (count <= MAX_ATTRIBUTES) return attributes;
  const kept: Record<string, string> = {};
  count = 0;
  for (const name in attributes) {
    if (count++ === MAX_ATTRIBUTES) break;
    setOwn(kept, name, attributes[name] as string);
  }
  return kept;
}

/** A SaxesParser with its handlers, always added in this order: all parsers get one shape (keep-shape.ts). */
function newParser(events: ParserEvents): SaxesParser {
  const parser = new (loadSaxes().SaxesParser)({ position: true });
  parser.on('opentagstart', events.opentagstart);
  parser.on('opentag', events.opentag);
  parser.on('closetag', events.closetag);
  parser.on('text', events.text);
  parser.on('cdata', events.cdata);
  parser.on('error', events.error);
  return parser;
}

const ignore = (): void => {};
keepShape(
  newParser({
    opentagstart: ignore,
    opentag: ignore,
    closetag: ignore,
    text: ignore,
    cdata: ignore,
    error: ignore,
  }),
);
