import type { Parser } from 'htmlparser2';
import { loadHtmlparser } from '../lazy-imports.js';
import { MAX_ATTRIBUTES, setOwn, TreeBuilder, type TreeLimits } from './builder.js';
import { decodeReferences, type ExpansionBudget } from './entities.js';
import type { XmlDocument } from './tree.js';

export interface TolerantResult {
  doc: XmlDocument;
  /** Where reading stopped because too many elements were open at once (string index). */
  stoppedAt?: number;
  /** Attributes past MAX_ATTRIBUTES per element, and where the first such element starts. */
  droppedAttributes?: { count: number; offset: number };
  /** True when entity references expanded beyond MAX_EXPANDED_CHARS; the rest decoded to nothing. */
  entitiesOverflowed: boolean;
}

// htmlparser2 keeps its open elements in an array it shifts at each tag: 150,000 unclosed elements took
// 4 s (issue 12). Reading stops when this many are open; elements deeper than maxDepth are skipped anyway.
const MIN_OPEN_LIMIT = 1024;
const STOP = new Error('parse: too many open elements');

/**
 * Reads a document that is not well-formed with htmlparser2 in XML mode, which recovers from
 * mismatched and unclosed tags, bare ampersands and truncation; every element that can be read is read.
 */
export function parseTolerant(
  text: string,
  entities: Map<string, string> | undefined,
  limits: TreeLimits,
): XmlDocument {
  return readTolerant(text, entities, limits).doc;
}

/** As parseTolerant, and says where reading stopped when too many elements were left open. */
export function readTolerant(
  text: string,
  entities: Map<string, string> | undefined,
  limits: TreeLimits,
): TolerantResult {
  const builder = new TreeBuilder(limits);
  const maxOpen = Math.max(limits.maxDepth * 4, MIN_OPEN_LIMIT);
  let open = 0;
  let stoppedAt: number | undefined;
  let inCdata = false;
  const budget: ExpansionBudget = { expandedChars: 0, overflowed: false };
  // A start tag is built from its name and its attributes, one event each, and opened at the next
  // event: htmlparser2 builds no attribute object of its own when it is not asked for onopentag, and
  // one element with 64,000 attributes made that object a slow dictionary (builder.ts, MAX_ATTRIBUTES).
  let pending: { name: string; offset: number; attrs: Record<string, string>; count: number } | undefined;
  let dropped: { count: number; offset: number } | undefined;
  const flush = (): void => {
    if (pending === undefined) return;
    const { name, attrs, offset } = pending;
    pending = undefined;
    if (++open > maxOpen) {
      stoppedAt = offset;
      throw STOP;
    }
    builder.open(name, attrs, offset);
  };
  const parser: Parser = new (loadHtmlparser().Parser)(
    {
      onopentagname(name) {
        flush();
        pending = { name, offset: parser.startIndex, attrs: {}, count: 0 };
      },
      onattribute(name, value) {
        if (pending === undefined || Object.hasOwn(pending.attrs, name)) return; // the first of duplicates stays
        if (pending.count === MAX_ATTRIBUTES) {
          dropped ??= { count: 0, offset: pending.offset };
          dropped.count++;
          return;
        }
        pending.count++;
        setOwn(pending.attrs, name, decodeReferences(value, entities, budget));
      },
      onclosetag() {
        flush();
        open--;
        builder.close();
      },
      ontext(data) {
        flush();
        builder.text(inCdata ? data : decodeReferences(data, entities, budget), inCdata);
      },
      oncdatastart() {
        flush();
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
      onend() {
        flush();
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeSelfClosing: true },
  );
  try {
    parser.end(text);
  } catch (err) {
    if (err !== STOP) throw err;
  }
  const result: TolerantResult = { doc: builder.doc, entitiesOverflowed: budget.overflowed };
  if (stoppedAt !== undefined) result.stoppedAt = stoppedAt + (limits.offsetBase ?? 0);
  if (dropped !== undefined)
    result.droppedAttributes = { count: dropped.count, offset: dropped.offset + (limits.offsetBase ?? 0) };
  return result;
}
