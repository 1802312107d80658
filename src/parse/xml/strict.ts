import type { SaxesParser, SaxesTag } from 'saxes';
import { keepShape } from '../../html/index.js';
import { loadSaxes } from '../lazy-imports.js';
import { DocumentText } from '../text/index.js';
import { TreeBuilder, type TreeLimits } from './builder.js';
import type { Doctype } from './doctype.js';
import { type EntityUse, withEntityTable } from './entities.js';
import { attributeCappingParser, droppedAttributes } from './saxes-attributes.js';
import { textBufferingParser } from './saxes-text.js';
import type { XmlDocument, XmlElement } from './tree.js';

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
  /** Attributes past the limit per element (saxes-attributes.ts), and where the first such element starts. */
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
  /** saxes's own parser class instead of ours (saxes-text.ts), to compare the two in tests. */
  ParserClass?: typeof SaxesParser,
): StrictResult {
  const source = typeof input === 'string' ? DocumentText.of(input) : input;
  const builder = new TreeBuilder(limits);
  const entityUse: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
  let error: XmlError | undefined;
  const externalDtd = doctype !== undefined && /\b(SYSTEM|PUBLIC)\b/.test(doctype.text.split('[')[0] ?? '');
  let tagOffset = 0;
  let dropped: { count: number; offset: number } | undefined;
  const parser: SaxesParser = newParser(ParserClass ?? parserClass(), {
    opentagstart: () => {
      tagOffset = parser.position;
    },
    opentag: (tag) => {
      if (dropped === undefined && droppedAttributes(parser) > 0)
        dropped = { count: 0, offset: tagOffset + (limits.offsetBase ?? 0) };
      builder.open(tag.name, tag.attributes as Record<string, string>, tagOffset);
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
    droppedAttributes: dropped && { count: droppedAttributes(parser), offset: dropped.offset },
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

/** A SaxesParser with its handlers, always added in this order: all parsers get one shape (keep-shape.ts). */
function newParser(ParserClass: typeof SaxesParser, events: ParserEvents): SaxesParser {
  const parser = new ParserClass({ position: true });
  parser.on('opentagstart', events.opentagstart);
  parser.on('opentag', events.opentag);
  parser.on('closetag', events.closetag);
  parser.on('text', events.text);
  parser.on('cdata', events.cdata);
  parser.on('error', events.error);
  return parser;
}

/** saxes's parser with our loop for character data (saxes-text.ts) and a cap on attributes. */
function parserClass(): typeof SaxesParser {
  return attributeCappingParser(textBufferingParser(loadSaxes().SaxesParser));
}

const ignore = (): void => {};
keepShape(
  newParser(parserClass(), {
    opentagstart: ignore,
    opentag: ignore,
    closetag: ignore,
    text: ignore,
    cdata: ignore,
    error: ignore,
  }),
);
