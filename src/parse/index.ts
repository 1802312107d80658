import { findAlternates, HTML_SNIFF_CHARS, looksLikeHtmlPage } from '../html/index.js';
import type { Entry } from '../model/entry.js';
import type { Feed } from '../model/feed.js';
import type { FeedVersion, ParseResult } from '../model/parse-result.js';
import { plural } from '../model/plural.js';
import { cleanResult } from './clean-text.js';
import type { ParseContext, Scope } from './context.js';
import { DiagnosticList, LineIndex } from './diagnostics.js';
import { capFields, MAX_CONTENT_BYTES, MAX_TITLE_BYTES } from './field-cap.js';
import { finishEntries } from './finish.js';
import {
  cutJsonItems,
  detectJsonVersion,
  detectXmlVersion,
  isRssInJson,
  parseHfeed,
  readJsonFeed,
  readXmlFeed,
  recoverJson,
  rssJsonToTree,
} from './formats/index.js';
import { DocumentText, decodeSource } from './text/index.js';
import { isElement, type ReadLimits, readXmlTree, type XmlElement } from './xml/index.js';

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

interface DocumentResult {
  version: FeedVersion;
  bozo: boolean;
  bozoReason?: string;
  namespaces: Record<string, string>;
  feed: Feed;
  entries: Entry[];
  alternates?: ParseResult['alternates'];
  /** Entries the XML tree left out past the limit. */
  skippedEntries?: number;
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

function readDocument(
  ctx: ParseContext,
  source: DocumentText,
  scope: Scope,
  limits: ReadLimits,
): DocumentResult {
  const start = source.firstNonSpace();
  if (start < 0) {
    ctx.diagnostics.add('document.empty', 'parse: the document is empty');
    return {
      version: '',
      bozo: true,
      bozoReason: 'document is empty',
      namespaces: {},
      feed: {},
      entries: [],
    };
  }
  if (source.head(start + 1).charCodeAt(start) === 123 /* { */)
    return readLargeJson(ctx, source.full(), scope, limits);
  // A feed saved inside an XHTML page still reads as XML; any other HTML page is reported as one
  if (looksLikeHtmlPage(source.head(HTML_SNIFF_CHARS))) {
    const text = source.full();
    if (!EMBEDDED_FEED_RE.test(text)) return readHtml(ctx, text, scope);
  }
  return readXml(ctx, source, scope, limits);
}

const EMBEDDED_FEED_RE = /<(?:feed|rss|rdf:RDF)[\s>]/;

function readXml(ctx: ParseContext, source: DocumentText, scope: Scope, limits: ReadLimits): DocumentResult {
  const tree = readXmlTree(ctx.diagnostics, source, limits);
  let root = tree.doc.root;
  let version = root ? detectXmlVersion(root, tree.doctypePublicId) : undefined;
  if (root && version === undefined) {
    const inner = findNestedFeed(root, tree.doctypePublicId);
    if (inner) {
      ctx.diagnostics.add('document.feed-embedded', `parse: the feed is inside a <${root.name}> element`, {
        offset: inner.root.offset,
      });
      ({ root, version } = inner);
    }
  }
  if (!root || version === undefined) {
    if (root && root.local.toLowerCase() === 'html') return readHtml(ctx, source.full(), scope);
    if (root && root.local.toLowerCase() === 'opml') return readOpmlList(ctx, root, tree);
    ctx.diagnostics.add(
      'document.not-a-feed',
      `parse: the document is not a feed${root ? ` (its root element is <${root.name}>)` : ''}`,
    );
    return {
      version: '',
      bozo: true,
      bozoReason: tree.bozoReason ?? 'not a feed',
      namespaces: tree.doc.declared,
      feed: {},
      entries: [],
    };
  }
  ctx.version = version;
  ctx.bareIsAtom = version.startsWith('atom');
  const { feed, entries } = readXmlFeed(ctx, root, scope);
  const result: DocumentResult = { version, bozo: tree.bozo, namespaces: tree.doc.declared, feed, entries };
  if (tree.doc.skippedEntries) result.skippedEntries = tree.doc.skippedEntries;
  if (tree.bozoReason) result.bozoReason = tree.bozoReason;
  return result;
}

/**
 * An OPML file handed to the parser (`tidings parse subs.opml`, a followed URL that serves one): a
 * well-formed one is no broken feed but a list of feeds, and the diagnostic says how to follow them.
 */
function readOpmlList(
  ctx: ParseContext,
  root: XmlElement,
  tree: ReturnType<typeof readXmlTree>,
): DocumentResult {
  const feeds = plural(countFeedOutlines(root), 'feed');
  ctx.diagnostics.add(
    'document.opml',
    `parse: this is an OPML subscription list (${feeds}), not a feed; \`tidings import FILE\` or the web UI's Import follows its feeds`,
    { offset: root.offset },
  );
  const result: DocumentResult = {
    version: '',
    bozo: tree.bozo,
    namespaces: tree.doc.declared,
    feed: {},
    entries: [],
  };
  if (tree.bozo) result.bozoReason = tree.bozoReason ?? 'not well-formed';
  return result;
}

/** Outlines with an xmlUrl, at any depth (folders nest them). */
function countFeedOutlines(el: XmlElement): number {
  let count = 0;
  for (const child of el.children) {
    if (!isElement(child)) continue;
    if (
      child.local.toLowerCase() === 'outline' &&
      Object.keys(child.attrs).some((a) => a.toLowerCase() === 'xmlurl')
    )
      count++;
    count += countFeedOutlines(child);
  }
  return count;
}

/** A feed element nested in another document (a feed saved inside an XHTML page), breadth first. */
function findNestedFeed(
  root: XmlElement,
  publicId: string,
): { root: XmlElement; version: FeedVersion } | undefined {
  let level: XmlElement[] = [root];
  for (let depth = 0; depth < 6 && level.length > 0; depth++) {
    const next: XmlElement[] = [];
    for (const el of level) {
      for (const child of el.children) {
        if (!isElement(child)) continue;
        const local = child.local.toLowerCase();
        const version = local === 'channel' ? undefined : detectXmlVersion(child, publicId);
        if (version !== undefined) return { root: child, version };
        next.push(child);
      }
    }
    level = next;
  }
  return undefined;
}

// Below this, JSON.parse of a whole document costs little, and its entries are cut after reading
const JSON_CUT_MIN_CHARS = 1 << 20;

/** Reads a JSON document, its items past the limit cut from the text first when the text is large. */
function readLargeJson(ctx: ParseContext, text: string, scope: Scope, limits: ReadLimits): DocumentResult {
  if (text.length < JSON_CUT_MIN_CHARS) return readJson(ctx, text, scope);
  const { text: kept, cut } = cutJsonItems(text, limits.maxEntries);
  const result = readJson(ctx, kept, scope);
  return cut > 0 ? { ...result, skippedEntries: cut } : result;
}

function readJson(ctx: ParseContext, text: string, scope: Scope): DocumentResult {
  let doc: unknown;
  let bozoReason: string | undefined;
  try {
    doc = JSON.parse(text);
  } catch {
    // not valid JSON: read what precedes the first error (a cut, a raw control character)
    const recovered = recoverJson(text);
    doc = recovered.value;
    bozoReason = recovered.error?.message ?? 'invalid JSON';
    ctx.diagnostics.add('json.invalid', `parse: invalid JSON: ${bozoReason}`, {
      offset: recovered.error?.offset ?? 0,
    });
  }
  const bozo = bozoReason !== undefined;
  const withReason = (r: DocumentResult): DocumentResult => (bozoReason ? { ...r, bozoReason } : r);
  if (isRssInJson(doc)) {
    ctx.version = 'rss20';
    const { feed, entries } = readXmlFeed(ctx, rssJsonToTree(doc.rss), scope);
    return withReason({ version: 'rss20', bozo, namespaces: {}, feed, entries });
  }
  const version = detectJsonVersion(doc);
  if (version === undefined) {
    ctx.diagnostics.add('document.not-a-feed', 'parse: the JSON document is not a JSON Feed');
    return {
      version: '',
      bozo: true,
      bozoReason: bozoReason ?? 'not a JSON Feed',
      namespaces: {},
      feed: {},
      entries: [],
    };
  }
  ctx.version = version;
  const { feed, entries } = readJsonFeed(ctx, doc as Record<string, unknown>, scope);
  return withReason({ version, bozo, namespaces: {}, feed, entries });
}

function readHtml(ctx: ParseContext, text: string, scope: Scope): DocumentResult {
  // A page marked up with microformats2 (h-feed, h-entry) is a feed in its own right (IndieWeb sites)
  const hfeed = parseHfeed(text, scope.base);
  if (hfeed && hfeed.entries.length > 0) {
    ctx.version = 'hfeed';
    return { version: 'hfeed', bozo: false, namespaces: {}, feed: hfeed.feed, entries: hfeed.entries };
  }
  const alternates = findAlternates(text, scope.base);
  const listed = alternates.map((a) => a.href).join(', ');
  const message = alternates.length
    ? `parse: this is an HTML page, not a feed; it links to ${alternates.length === 1 ? 'the feed' : 'the feeds'} ${listed}`
    : 'parse: this is an HTML page, not a feed, and it links to no feed';
  ctx.diagnostics.add('document.html', message);
  return {
    version: '',
    bozo: true,
    bozoReason: 'HTML page instead of a feed',
    namespaces: {},
    feed: {},
    entries: [],
    alternates,
  };
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
