import { isSafeUrl, resolveUrl } from '../html/index.js';
import type { Entry, Feed, FeedVersion } from '../model/index.js';
import type { DiagnosticList } from './diagnostics.js';
import { canonicalPrefix, type XmlElement } from './xml/index.js';

/** xml:base and xml:lang in effect at an element. */
export interface Scope {
  base: string | undefined;
  lang: string | undefined;
}

/** What the format readers share while walking one document. */
export interface ParseContext {
  diagnostics: DiagnosticList;
  version: FeedVersion;
  /** In Atom documents, elements in no namespace are read as Atom elements. */
  bareIsAtom: boolean;
  /** Index of the entry being read, undefined at feed level. */
  entryIndex: number | undefined;
}

/** A feed or an entry while it is being filled in; the readers write the keys their elements carry. */
export type Target = Feed & Entry;

/** Reads one element into the feed or entry being built. */
export type Handler = (ctx: ParseContext, el: XmlElement, target: Target, scope: Scope) => void;

/** The scope inside an element: its own xml:base (resolved) and xml:lang override the inherited ones. */
export function scopeOf(el: XmlElement, inherited: Scope): Scope {
  const base = el.attrs['xml:base'];
  const lang = el.attrs['xml:lang'];
  if (base === undefined && lang === undefined) return inherited;
  // an xml:base with a scheme such as javascript: is ignored (fixture: wellformed/base/unsafe_base.xml)
  const resolved = base === undefined ? undefined : resolveUrl(base.trim(), inherited.base);
  return {
    base: resolved === undefined || !isSafeUrl(resolved) ? inherited.base : resolved,
    // xml:lang="" means "no language"; en_US is a common misspelling of en-US
    lang: lang === undefined ? inherited.lang : lang.trim().replace(/_/g, '-') || undefined,
  };
}

/**
 * The name handler tables use for an element: `local` for RSS and no namespace, `prefix:local` with our
 * canonical prefix for known namespaces, the document's own prefix for unknown ones. Lower case, as
 * feeds vary the case of element names (`pubdate`, `PubDate`).
 */
export function keyOf(ctx: ParseContext, el: XmlElement): string {
  const local = el.local.toLowerCase();
  const prefix = canonicalPrefix(el.ns);
  if (prefix === '') return ctx.bareIsAtom ? `atom:${local}` : local;
  if (prefix !== undefined) return `${prefix}:${local}`;
  const colon = el.name.indexOf(':');
  return colon > 0 ? `${el.name.slice(0, colon).toLowerCase()}:${local}` : local;
}

/** Reads every child element that has a handler in the table. */
export function readChildren(
  ctx: ParseContext,
  parent: XmlElement,
  target: Target,
  scope: Scope,
  table: ReadonlyMap<string, Handler>,
): void {
  for (const child of parent.children) {
    if (!('local' in child)) continue;
    const handler = table.get(keyOf(ctx, child));
    if (handler) handler(ctx, child, target, scopeOf(child, scope));
  }
}

/** Where a diagnostic about this element points. */
export function placeOf(
  ctx: ParseContext,
  el: XmlElement,
): { offset?: number; entry?: number; field: string } {
  const place: { offset?: number; entry?: number; field: string } = { field: el.name };
  if (el.offset >= 0) place.offset = el.offset;
  if (ctx.entryIndex !== undefined) place.entry = ctx.entryIndex;
  return place;
}
