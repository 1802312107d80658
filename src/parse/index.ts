// parseFeed: bytes in, a ParseResult out, no I/O. The bytes are decoded (text/), read as what they turn
// out to be by the reader of their format (formats/, XML through xml/, HTML through ../html/), then
// the feed's fields are cut to size (field-cap.ts), its entries finished (finish.ts: summaries, ids) and
// every string cleaned of control characters (clean-text.ts). Every problem is a diagnostic.

import { type Entry, type FeedVersion, type ParseResult, plural } from '../model/index.js';
import { cleanResult } from './clean-text.js';
import type { ParseContext, Scope } from './context.js';
import { DiagnosticList, LineIndex } from './diagnostics.js';
import { capFields, MAX_CONTENT_BYTES, MAX_TITLE_BYTES } from './field-cap.js';
import { finishEntries } from './finish.js';
import { readDocument } from './formats/index.js';
import { DocumentText, decodeSource } from './text/index.js';
import type { ReadLimits } from './xml/index.js';

// What other areas use besides parseFeed: OPML files are read with the same two XML passes (opml/),
// and discovery decodes web pages and reads their h-feed and rel links (poll/discover.ts).
export { LineIndex } from './diagnostics.js';
export { MAX_CONTENT_BYTES, MAX_TITLE_BYTES } from './field-cap.js';
export { pageRels, parseHfeed } from './formats/index.js';
export { DocumentText, decodeDocument } from './text/index.js';
export { isElement, parseStrict, parseTolerant, type XmlElement } from './xml/index.js';

export interface ParseOptions {
  /** The Content-Type header the document was served with, charset and all. */
  contentType?: string;
  /** The document's URL (or Content-Location): the base for relative links. */
  baseUrl?: string;
  /** The Content-Language header: the default language. */
  contentLanguage?: string;
  /** Documents larger than this are refused with a diagnostic (default 64 MiB). */
  maxBytes?: number;
  /** Elements nested deeper than this are skipped with a diagnostic (default 256). */
  maxDepth?: number;
  /** Entries past the first this many are left out with a diagnostic (default 5,000). */
  maxEntries?: number;
  /** An entry's content, summary and media description, and a feed's subtitle, are cut to this many UTF-8 bytes (default 1 MiB). */
  maxContentBytes?: number;
  /** Titles are cut to this many UTF-8 bytes (default 8 KiB). */
  maxTitleBytes?: number;
  /** Give diagnostics the raw line they point at (`excerpt`); off by default, as in the parse contract. */
  excerpts?: boolean;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 256;
// Feeds list their newest entries first, and the longest real ones (podcasts with daily episodes over
// years) hold a few thousand; past this, a document only costs memory (issue 12: 200,000 items, 600 MB).
export const DEFAULT_MAX_ENTRIES = 5_000;

/** Parses an RSS, Atom, RDF, CDF or JSON Feed document; never throws for a bad document. */
export function parseFeed(input: Uint8Array | string, options: ParseOptions = {}): ParseResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) {
    const diagnostics = new DiagnosticList(undefined);
    diagnostics.add('xml.too-large', `parse: the document is ${size} bytes, over the limit of ${maxBytes}`);
    return emptyResult('', true, diagnostics, 'document too large');
  }
  const decoded =
    typeof input === 'string'
      ? {
          source: DocumentText.of(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input),
          encoding: 'utf-8',
          bozo: false,
          diagnostics: [],
        }
      : decodeSource(input, options.contentType);
  const lines = new LineIndex(decoded.source);
  const diagnostics = new DiagnosticList(lines);
  for (const d of decoded.diagnostics) diagnostics.push(d);
  const scope: Scope = { base: options.baseUrl, lang: options.contentLanguage?.trim() || undefined };
  const ctx: ParseContext = { diagnostics, version: '', bareIsAtom: false, entryIndex: undefined };
  const limits: ReadLimits = {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxEntries: Math.max(0, options.maxEntries ?? DEFAULT_MAX_ENTRIES),
  };
  const result = readDocument(ctx, decoded.source, scope, limits);
  const kept = keepFirstEntries(ctx, result.entries, result.skippedEntries ?? 0, limits.maxEntries);
  const { feed, entries } = capFields(result.feed, kept, fieldLimits(options), diagnostics);
  const bozo = decoded.bozo || result.bozo;
  const out: ParseResult = {
    version: result.version,
    bozo,
    encoding: decoded.encoding,
    namespaces: result.namespaces,
    feed,
    entries: finishEntries(ctx, entries),
    diagnostics: diagnostics.items,
  };
  if (options.excerpts) diagnostics.addExcerpts();
  const reason = result.bozoReason ?? ('bozoReason' in decoded ? decoded.bozoReason : undefined);
  if (bozo && reason) out.bozoReason = reason;
  if (result.alternates) out.alternates = result.alternates;
  if (out.feed.language === undefined && scope.lang !== undefined)
    out.feed = { ...out.feed, language: scope.lang };
  cleanResult(out, diagnostics);
  return out;
}

function fieldLimits(options: ParseOptions) {
  return {
    contentBytes: options.maxContentBytes ?? MAX_CONTENT_BYTES,
    titleBytes: options.maxTitleBytes ?? MAX_TITLE_BYTES,
  };
}

/** The first `max` entries, with a diagnostic saying how many there were when there were more. */
function keepFirstEntries(ctx: ParseContext, entries: Entry[], skipped: number, max: number): Entry[] {
  const total = entries.length + skipped;
  if (total <= max) return entries;
  ctx.diagnostics.add(
    'entries.truncated',
    `parse: the document has ${plural(total, 'entry', 'entries')}; only the first ${max} were read (the limit on entries per feed)`,
  );
  return entries.length > max ? entries.slice(0, max) : entries;
}

function emptyResult(
  version: FeedVersion,
  bozo: boolean,
  diagnostics: DiagnosticList,
  reason: string,
): ParseResult {
  return {
    version,
    bozo,
    bozoReason: reason,
    encoding: '',
    namespaces: {},
    feed: {},
    entries: [],
    diagnostics: diagnostics.items,
  };
}
