import type { DiagnosticList } from '../diagnostics.js';
import type { DocumentText } from '../text/index.js';
import { findBareAmpersand, findBareAmpersands } from './bare-ampersand.js';
import { MAX_ATTRIBUTES } from './builder.js';
import { readDoctype } from './doctype.js';
import { parseStrict, type XmlError } from './strict.js';
import { readTolerant } from './tolerant.js';
import { isElement, type XmlDocument, type XmlElement } from './tree.js';

export interface TreeResult {
  doc: XmlDocument;
  bozo: boolean;
  bozoReason?: string;
  doctypePublicId: string;
}

/** What a document may make the tree reader do. */
export interface ReadLimits {
  maxDepth: number;
  maxEntries: number;
}

/**
 * Reads a document strictly (well-formed XML); on the first error, records where it is and which
 * entry and field it broke, and reads the document again tolerantly so that every item that can be
 * read is read.
 */
export function readXmlTree(
  diagnostics: DiagnosticList,
  source: DocumentText,
  limits: ReadLimits,
): TreeResult {
  const { maxDepth } = limits;
  // Whitespace before the XML declaration is not well-formed, yet common (blog plugins print a blank
  // line first) and harmless: read the document from its declaration and say so.
  const lead = source.firstNonSpace();
  const offsetBase = lead > 0 && source.head(lead + 5).startsWith('<?xml', lead) ? lead : 0;
  if (offsetBase > 0) {
    diagnostics.add('xml.leading-whitespace', 'xml: the document has whitespace before its XML declaration', {
      offset: 0,
    });
  }
  // A DOCTYPE comes first, before the root element: only a document that starts with one is read whole for it
  const doctype = DOCTYPE_START.test(source.head(offsetBase + DOCTYPE_HEAD_CHARS))
    ? readDoctype(source.full().slice(offsetBase))
    : undefined;
  let reason: string | undefined;
  for (const d of doctype?.diagnostics ?? []) {
    diagnostics.add(d.code as 'xml.external-entity', d.message, {
      offset: (doctype?.offset ?? 0) + offsetBase,
    });
    if (d.code === 'xml.parameter-entity-used') reason ??= 'parameter entities in the DTD';
    // a refused external entity and an entity past the expansion limit are errors: bozo, as docs/parse.md has it
    if (d.code === 'xml.external-entity') reason ??= 'an external entity was refused';
    if (d.code === 'xml.entity-expansion') reason ??= 'entity expansion limit';
  }
  const strict = parseStrict(source, doctype, { ...limits, offsetBase });
  let doc = strict.doc;
  let droppedAttributes = strict.droppedAttributes;
  let entitiesOverflowed = strict.entityUse.overflowed;
  if (strict.error) {
    const text = source.full().slice(offsetBase);
    const tolerant = readTolerant(text, doctype?.entities, { ...limits, offsetBase });
    doc = tolerant.doc;
    droppedAttributes = tolerant.droppedAttributes;
    entitiesOverflowed ||= tolerant.entitiesOverflowed;
    if (tolerant.stoppedAt !== undefined) {
      diagnostics.add(
        'xml.too-deep',
        'xml: too many elements are left open; the rest of the document was not read',
        { offset: tolerant.stoppedAt },
      );
    }
    const bare = findBareAmpersand(text, strict.error.offset - offsetBase);
    const error =
      bare < 0
        ? strict.error
        : {
            message: 'a bare "&" (write &amp;)',
            offset: bare + offsetBase,
            openElements: openElementsAt(doc, bare + offsetBase),
          };
    reason = error.message;
    diagnostics.add('xml.not-well-formed', `xml: ${error.message}`, placeOfError(error, doc.skippedFrom));
    // the strict pass stops at its first error; the bare "&" and stray "<" after it are found by scanning,
    // each reported in its entry and field too (every broken item named, not only the first)
    reportLaterErrors(diagnostics, doc, text, offsetBase, error.offset, tolerant.strayLessThans);
  }
  const undefinedNames = [...new Set(strict.entityUse.undefinedNames)];
  if (undefinedNames.length > 0) {
    reason ??= `undefined entity &${undefinedNames[0]};`;
    diagnostics.add(
      'xml.undefined-entity',
      `xml: undefined entities ${undefinedNames.map((n) => `&${n};`).join(' ')} (read as HTML entities)`,
    );
  }
  // a bare "&" reads as a reference whose "name" is what follows it (" b &copy"): that is the bare
  // ampersand reported above, not an entity; only names that could be one are listed
  const unknownNames = [...new Set(strict.entityUse.unknownNames)].filter((name) => ENTITY_NAME.test(name));
  if (unknownNames.length > 0) {
    reason ??= `undefined entity &${unknownNames[0]};`;
    diagnostics.add(
      'xml.undefined-entity',
      `xml: undefined entities ${unknownNames.map((n) => `&${n};`).join(' ')} (kept as written)`,
    );
  }
  if (entitiesOverflowed) {
    reason ??= 'entity expansion limit';
    diagnostics.add(
      'xml.entity-expansion',
      'xml: entity references expand beyond the limit; the rest were dropped',
    );
  }
  for (const { prefix, offset } of strict.unboundPrefixes.slice(0, 1)) {
    reason ??= `unbound namespace prefix "${prefix}"`;
    diagnostics.add('xml.not-well-formed', `xml: the namespace prefix "${prefix}" is not declared`, {
      offset,
    });
  }
  if (strict.tooDeepAt !== undefined) {
    reason ??= 'elements nested too deeply';
    diagnostics.add('xml.too-deep', `xml: elements nest deeper than ${maxDepth}; deeper ones were skipped`, {
      offset: strict.tooDeepAt,
    });
  }
  if (droppedAttributes !== undefined) {
    reason ??= 'too many attributes on one element';
    diagnostics.add(
      'xml.too-many-attributes',
      `xml: elements have more than ${MAX_ATTRIBUTES} attributes; ${droppedAttributes.count} past the first ${MAX_ATTRIBUTES} were dropped`,
      { offset: droppedAttributes.offset },
    );
  }
  const result: TreeResult = { doc, bozo: reason !== undefined, doctypePublicId: doctype?.publicId ?? '' };
  if (reason !== undefined) result.bozoReason = reason;
  return result;
}

// How far into a document its DOCTYPE may start (readDoctype looks as far)
const DOCTYPE_HEAD_CHARS = 4096 + 9;
const DOCTYPE_START = /<!DOCTYPE/i;

/** The elements that had started at a string index, outermost first (the tolerant tree has no end offsets). */
function openElementsAt(doc: XmlDocument, offset: number): XmlElement[] {
  const path: XmlElement[] = [];
  let el = doc.root;
  while (el && el.offset <= offset) {
    path.push(el);
    let next: XmlElement | undefined;
    for (const child of el.children) {
      if (isElement(child) && child.offset <= offset) next = child;
    }
    el = next;
  }
  return path;
}

/** At most this many well-formedness errors are reported after the first; a count says how many more. */
const MAX_LATER_ERRORS = 20;

function reportLaterErrors(
  diagnostics: DiagnosticList,
  doc: XmlDocument,
  text: string,
  offsetBase: number,
  first: number,
  strays: readonly number[],
): void {
  const found = [
    ...findBareAmpersands(text, MAX_LATER_ERRORS + 2).map((at) => ({
      offset: at + offsetBase,
      message: 'a bare "&" (write &amp;)',
    })),
    ...strays.map((offset) => ({ offset, message: 'a "<" that starts no tag (write &lt;)' })),
  ]
    // the first error, as the strict pass placed it (a few characters after its "<" or "&")
    .filter((e) => e.offset > first || e.offset < first - 8)
    .sort((a, b) => a.offset - b.offset);
  for (const error of found.slice(0, MAX_LATER_ERRORS)) {
    const place = placeOfError(
      { ...error, openElements: openElementsAt(doc, error.offset) },
      doc.skippedFrom,
    );
    diagnostics.add('xml.not-well-formed', `xml: ${error.message}`, place);
  }
  if (found.length > MAX_LATER_ERRORS)
    diagnostics.add(
      'xml.not-well-formed',
      `xml: more bare "&" or stray "<" past these ${MAX_LATER_ERRORS + 1}; not listed`,
    );
}

// An XML Name as an entity reference may use it (ASCII letters and what follows them in feeds).
const ENTITY_NAME = /^[A-Za-z_:][\w.:-]*$/;

/**
 * Locates a well-formedness error: line, column, and the entry and field it happened in. Past the
 * entries kept (`skippedFrom`, the limit on entries) it names none: the last kept one is not where it is.
 */
function placeOfError(
  error: XmlError,
  skippedFrom: number | undefined,
): { offset: number; entry?: number; field?: string } {
  const place: { offset: number; entry?: number; field?: string } = { offset: error.offset };
  if (skippedFrom !== undefined && error.offset >= skippedFrom) return place;
  const open = error.openElements;
  const itemAt = open.findIndex((el) => {
    const local = el.local.toLowerCase();
    return local === 'item' || local === 'entry';
  });
  if (itemAt >= 0) {
    const item = open[itemAt];
    const siblings = item?.parent?.children ?? [];
    let index = 0;
    for (const sibling of siblings) {
      if (sibling === item) break;
      if ('local' in sibling && sibling.local.toLowerCase() === item?.local.toLowerCase()) index++;
    }
    // RSS 1.0 items are siblings of the channel; RSS 2.0 items follow other channel children
    place.entry = index;
    const field = open[itemAt + 1];
    if (field) place.field = field.name;
  } else if (open.length > 0) {
    place.field = open[open.length - 1]?.name as string;
  }
  return place;
}
