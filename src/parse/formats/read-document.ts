// Which kind of document this is (JSON, an HTML page, XML: a feed, a feed inside a page, an OPML file),
// and its reading by the reader of its format.

import { findAlternates, HTML_SNIFF_CHARS, looksLikeHtmlPage } from '../../html/index.js';
import { type Entry, type Feed, type FeedVersion, type ParseResult, plural } from '../../model/index.js';
import type { ParseContext, Scope } from '../context.js';
import type { DocumentText } from '../text/index.js';
import { isElement, type ReadLimits, readXmlTree, type XmlElement } from '../xml/index.js';
import { parseHfeed } from './hfeed.js';
import { cutJsonItems } from './json-items.js';
import { recoverJson } from './json-recover.js';
import { detectJsonVersion, readJsonFeed } from './jsonfeed.js';
import { detectXmlVersion, readXmlFeed } from './read-xml.js';
import { isRssInJson, rssJsonToTree } from './rss-json.js';

/** A document read by its format's reader, before parseFeed caps, finishes and cleans it. */
export interface DocumentResult {
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

/** Reads a decoded document as what it turns out to be; says so in a diagnostic when it is no feed. */
export function readDocument(
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
  // JSON: an object (a JSON Feed), or an array, which is JSON that is no feed (not XML gone wrong)
  const first = source.head(start + 1).charCodeAt(start);
  if (first === 123 /* { */ || first === 91 /* [ */) return readLargeJson(ctx, source.full(), scope, limits);
  const jsonAt = jsonFeedAfterText(source.head(JSON_AFTER_TEXT_CHARS));
  if (jsonAt !== undefined) return readJsonAfterText(ctx, source.full(), start, jsonAt, scope, limits);
  // A feed saved inside an XHTML page still reads as XML; any other HTML page is reported as one
  if (looksLikeHtmlPage(source.head(HTML_SNIFF_CHARS))) {
    const text = source.full();
    if (!EMBEDDED_FEED_RE.test(text)) return readHtml(ctx, text, scope);
  }
  return readXml(ctx, source, scope, limits);
}

const EMBEDDED_FEED_RE = /<(?:feed|rss|rdf:RDF)[\s>]/;

// A JSON Feed printed after something else (a PHP warning or notice, a debug line): an object whose
// version names JSON Feed, starting a line within the first 64 KB, with no XML feed before it.
const JSON_AFTER_TEXT_CHARS = 65_536;
const JSON_FEED_START_RE = /(?:^|[\r\n>])[ \t]*(\{)\s*"[^"]{1,40}"\s*:/g;
const JSON_FEED_VERSION_RE = /"version"\s*:\s*"https?:\/\/jsonfeed\.org\/version\//;
const JSON_VERSION_WINDOW = 4096;
/** Markup that shows JSON rather than serving it. */
const CODE_RE = /<(?:script|pre|code|textarea)[\s>]/i;

/** Where a JSON Feed starts after other text in `head`, or undefined when it does not. */
function jsonFeedAfterText(head: string): number | undefined {
  // most documents name no JSON Feed at all; a page (an example of JSON Feed in a post, say) stays a page
  if (!head.includes('jsonfeed.org/version/') || looksLikeHtmlPage(head)) return undefined;
  JSON_FEED_START_RE.lastIndex = 0;
  for (let match = JSON_FEED_START_RE.exec(head); match !== null; match = JSON_FEED_START_RE.exec(head)) {
    const at = match.index + match[0].indexOf('{');
    const before = head.slice(0, at);
    if (EMBEDDED_FEED_RE.test(before) || CODE_RE.test(before)) return undefined;
    if (JSON_FEED_VERSION_RE.test(head.slice(at, at + JSON_VERSION_WINDOW))) return at;
  }
  return undefined;
}

/**
 * Reads the JSON Feed at `at`, the text before it blanked (lines kept, so that every diagnostic keeps its
 * line and column), and says what came first.
 */
function readJsonAfterText(
  ctx: ParseContext,
  text: string,
  start: number,
  at: number,
  scope: Scope,
  limits: ReadLimits,
): DocumentResult {
  const before = text.slice(start, at).trim();
  const shown = before.length > 30 ? `${before.slice(0, 30)}...` : before;
  ctx.diagnostics.add(
    'document.markup-before-feed',
    `parse: the JSON Feed starts after other text (${JSON.stringify(shown)} first): a server error or warning printed before it?`,
    { offset: start },
  );
  const blanked = text.slice(0, at).replace(/[^\r\n]/g, ' ') + text.slice(at);
  const result = readLargeJson(ctx, blanked, scope, limits);
  return { ...result, bozo: true, bozoReason: result.bozoReason ?? 'text before the JSON Feed' };
}

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
  if (tree.doc.before !== undefined)
    ctx.diagnostics.add(
      'document.markup-before-feed',
      `parse: the feed starts after other markup (<${tree.doc.before.name}> first): a server error or warning printed before it?`,
      { offset: tree.doc.before.offset },
    );
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

/** Where and why JSON.parse refused a text, from its message ("... in JSON at position 47"). */
function strictJsonError(error: unknown): { offset: number; message: string } {
  const message = error instanceof Error ? error.message : '';
  const at = / (?:in JSON )?at position (\d+)/.exec(message);
  const words = message
    .replace(/ (?:in JSON )?at position \d+.*$/s, '')
    .replace(/, ".*" is not valid JSON$/s, '');
  return { offset: at ? Number(at[1]) : 0, message: words.slice(0, 200) || 'invalid JSON' };
}

function readJson(ctx: ParseContext, text: string, scope: Scope): DocumentResult {
  let doc: unknown;
  let bozoReason: string | undefined;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    // not valid JSON: read what precedes the first error (a cut, a raw control character); what the
    // recovering reader lets pass (a trailing comma) is located where JSON.parse stopped
    const recovered = recoverJson(text);
    doc = recovered.value;
    const found = recovered.error ?? strictJsonError(error);
    bozoReason = found.message;
    // inside an item: its index and field, as an XML error names its entry
    const path = recovered.error?.path ?? [];
    const place =
      path[0] === 'items' && typeof path[1] === 'number'
        ? { entry: path[1], ...(typeof path[2] === 'string' ? { field: path[2] } : {}) }
        : {};
    ctx.diagnostics.add('json.invalid', `parse: invalid JSON: ${bozoReason}`, {
      offset: found.offset,
      ...place,
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
  const declared = (doc as Record<string, unknown>)['version'];
  if (
    typeof declared !== 'string' ||
    !/^https?:\/\/jsonfeed\.org\/version\/1(?:\.1)?\/?$/.test(declared.trim())
  )
    ctx.diagnostics.add(
      'json.version',
      `parse: the JSON Feed's version is ${typeof declared === 'string' ? `"${declared.slice(0, 100)}"` : 'missing'}, not https://jsonfeed.org/version/1.1 (or /1); read as JSON Feed ${version === 'json11' ? '1.1' : '1.0'}`,
    );
  ctx.version = version;
  const { feed, entries } = readJsonFeed(ctx, doc as Record<string, unknown>, scope);
  return withReason({ version, bozo, namespaces: {}, feed, entries });
}

function readHtml(ctx: ParseContext, text: string, scope: Scope): DocumentResult {
  // A page marked up with microformats2 (h-feed, h-entry) is a feed in its own right (IndieWeb sites)
  const hfeed = parseHfeed(text, scope.base);
  if (hfeed && hfeed.entries.length > 0) {
    ctx.version = 'hfeed';
    // a date the page gives that cannot be read is a warning naming the entry and property, as in feeds
    // (microformats carry no source position)
    hfeed.entries.forEach((entry, index) => {
      for (const [raw, read, field] of [
        [entry.publishedRaw, entry.published, 'dt-published'],
        [entry.updatedRaw, entry.updated, 'dt-updated'],
      ] as const)
        if (raw !== undefined && read === undefined)
          ctx.diagnostics.add('date.unparseable', `parse: cannot read the date "${raw.slice(0, 80)}"`, {
            entry: index,
            field,
          });
    });
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
