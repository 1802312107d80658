import type { Parser } from 'htmlparser2';
import { loadHtmlparser } from '../lazy-imports.js';
import { setOwn, TreeBuilder, type TreeLimits } from './builder.js';
import { decodeReferences } from './entities.js';
import type { XmlDocument } from './tree.js';

export interface TolerantResult {
  doc: XmlDocument;
  /** Where reading stopped because too many elements were open at once (string index). */
  stoppedAt?: number;
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
  const parser: Parser = new (loadHtmlparser().Parser)(
    {
      onopentag(name, attribs) {
        if (++open > maxOpen) {
          stoppedAt = parser.startIndex;
          throw STOP;
        }
        const attrs: Record<string, string> = {};
        for (const key in attribs) setOwn(attrs, key, decodeReferences(attribs[key] ?? '', entities));
        builder.open(name, attrs, parser.startIndex);
      },
      onclosetag() {
        open--;
        builder.close();
      },
      ontext(data) {
        builder.text(inCdata ? data : decodeReferences(data, entities), inCdata);
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeSelfClosing: true },
  );
  try {
    parser.end(text);
  } catch (err) {
    if (err !== STOP) throw err;
  }
  const result: TolerantResult = { doc: builder.doc };
  if (stoppedAt !== undefined) result.stoppedAt = stoppedAt + (limits.offsetBase ?? 0);
  return result;
}
