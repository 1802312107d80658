import type { Parser } from 'htmlparser2';
import { loadHtmlparser } from '../lazy-imports.js';
import { SECTION_END } from './bare-ampersand.js';
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
  /** Where stray `<` were read as text (document offsets), the first MAX_STRAY_REPORTED of them. */
  strayLessThans: number[];
}

const MAX_STRAY_REPORTED = 100;

// htmlparser2 keeps its open elements in an array it shifts at each tag: 150,000 unclosed elements took
// 4 s (issue 12). Reading stops when this many are open; elements deeper than maxDepth are skipped anyway.
const MIN_OPEN_LIMIT = 1024;
const STOP = new Error('parse: too many open elements');

// A stray `<` (not markup) is read as this character, then given back as `<` in text and attribute values:
// a noncharacter, so no well-formed document holds it, and of the same length, so offsets stay true.
const STRAY_LT = '\uFDD0';
const STRAY_LT_RE = /\uFDD0/g;
const SECTION_STARTS = Object.keys(SECTION_END);
// What may follow a `<` that starts markup: a name (an element), `/`, `!` or `?`.
const MARKUP_START = /[\p{L}_:/!?]/u;

/**
 * The text with each `<` that starts no markup replaced by STRAY_LT: one not followed by a name, `/`, `!`
 * or `?` (`price <5`, `a <= b`), or whose tag meets another `<` before its `>` outside quotes (`if x<y
 * then</title>`). In XML mode htmlparser2 reads any such `<` as a start tag and the rest of the item,
 * closing tags included, as its attributes (a title swallowed its item's link, guid and date). One pass
 * forward. Undefined when there is none (or the text already holds STRAY_LT, to stay exact).
 */
export function markStrayLessThans(text: string, offsets?: number[]): string | undefined {
  if (text.includes(STRAY_LT)) return undefined;
  let out: string[] | undefined;
  let copied = 0;
  let at = text.indexOf('<');
  while (at >= 0) {
    const after = text.charAt(at + 1);
    let markup = MARKUP_START.test(after);
    // where to look for the next `<`: past the tag read here (never twice over the same text)
    let resume = at + 1;
    const section = SECTION_STARTS.find((start) => text.startsWith(start, at));
    if (section !== undefined) {
      // a CDATA section, comment or processing instruction: a `<` inside is no markup and no mistake
      const close = SECTION_END[section] as string;
      const end = text.indexOf(close, at + section.length);
      resume = end < 0 ? text.length : end + close.length;
    } else if (markup && after !== '!' && after !== '?') {
      // a tag: its `>` must come before any other `<` outside quoted values
      let i = at + 1;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22 || c === 0x27) {
          const close = text.indexOf(c === 0x22 ? '"' : "'", i + 1);
          if (close < 0) i = text.length - 1;
          else i = close;
        } else if (c === 0x3e) break;
        else if (c === 0x3c) {
          markup = false;
          break;
        }
      }
      resume = i;
    }
    if (!markup) {
      out ??= [];
      out.push(text.slice(copied, at), STRAY_LT);
      copied = at + 1;
      if (offsets && offsets.length < MAX_STRAY_REPORTED) offsets.push(at);
    }
    at = text.indexOf('<', resume);
  }
  if (out === undefined) return undefined;
  out.push(text.slice(copied));
  return out.join('');
}

function unmark(value: string, marked: boolean): string {
  return marked && value.includes(STRAY_LT) ? value.replace(STRAY_LT_RE, '<') : value;
}

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
  const strays: number[] = [];
  const markedText = markStrayLessThans(text, strays);
  const marked = markedText !== undefined;
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
        setOwn(pending.attrs, name, unmark(decodeReferences(value, entities, budget), marked));
      },
      onclosetag() {
        flush();
        open--;
        builder.close();
      },
      ontext(data) {
        flush();
        builder.text(unmark(inCdata ? data : decodeReferences(data, entities, budget), marked), inCdata);
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
    parser.end(markedText ?? text);
  } catch (err) {
    if (err !== STOP) throw err;
  }
  const base = limits.offsetBase ?? 0;
  const result: TolerantResult = {
    doc: builder.doc,
    entitiesOverflowed: budget.overflowed,
    strayLessThans: strays.map((at) => at + base),
  };
  if (stoppedAt !== undefined) result.stoppedAt = stoppedAt + (limits.offsetBase ?? 0);
  if (dropped !== undefined)
    result.droppedAttributes = { count: dropped.count, offset: dropped.offset + (limits.offsetBase ?? 0) };
  return result;
}
