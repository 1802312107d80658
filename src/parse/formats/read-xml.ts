import { resolveUrl } from '../../html/index.js';
import type { Entry, Feed, FeedVersion, Text } from '../../model/index.js';
import {
  type Handler,
  type ParseContext,
  readChildren,
  type Scope,
  scopeOf,
  type Target,
} from '../context.js';
import { ATOM03_NS, ATOM10_NS, canonicalPrefix, RSS090_NS, type XmlElement } from '../xml/index.js';
import { ATOM_ENTRY, ATOM_FEED, readAtomLink } from './atom.js';
import { dublinCore, itunes, mediaRss, modules } from './extensions/index.js';
import { setDate, trimmedText } from './fields.js';
import { RSS_ENTRY, RSS_FEED, readImage, readTextInput } from './rss.js';

const FEED_TABLE = new Map<string, Handler>([
  ...RSS_FEED,
  ...ATOM_FEED,
  ['atom:link', readAtomLink],
  ...dublinCore('feed'),
  ...itunes('feed'),
  ...mediaRss(),
  ...modules(),
]);

const ENTRY_TABLE = new Map<string, Handler>([
  ...RSS_ENTRY,
  ...ATOM_ENTRY,
  ['atom:link', readAtomLink],
  ...dublinCore('entry'),
  ...itunes('entry'),
  ...mediaRss(),
  ...modules(),
]);

/** What a feed document's root element says about its format. */
export function detectXmlVersion(root: XmlElement, doctypePublicId: string): FeedVersion | undefined {
  const local = root.local.toLowerCase();
  if (local === 'rss') {
    const version = (root.attrs['version'] ?? '').trim();
    if (version === '0.91') return /netscape/i.test(doctypePublicId) ? 'rss091n' : 'rss091u';
    if (version === '0.92') return 'rss092';
    if (version === '0.93') return 'rss093';
    if (version === '0.94') return 'rss094';
    if (version.startsWith('2')) return 'rss20';
    if (version === '0.90') return 'rss090';
    return 'rss';
  }
  if (local === 'rdf') {
    const channel = root.children.find((c) => 'local' in c && c.local.toLowerCase() === 'channel') as
      | XmlElement
      | undefined;
    const ns = channel?.ns ?? root.scope[''] ?? '';
    return ns === RSS090_NS ? 'rss090' : 'rss10';
  }
  if (local === 'feed') {
    if (root.ns === ATOM10_NS) return 'atom10';
    const version = (root.attrs['version'] ?? '').trim();
    if (root.ns === ATOM03_NS || root.ns === '' || canonicalPrefix(root.ns) === '') {
      if (version === '0.1') return 'atom01';
      if (version === '0.2') return 'atom02';
      if (version === '0.3') return 'atom03';
      return 'atom';
    }
    return 'atom';
  }
  if (local === 'channel') return 'cdf';
  return undefined;
}

/** Reads the feed and its entries from the tree of an RSS, RDF, Atom or CDF document. */
export function readXmlFeed(
  ctx: ParseContext,
  root: XmlElement,
  docScope: Scope,
): { feed: Feed; entries: Entry[] } {
  const feed: Target = {};
  const entries: Entry[] = [];
  const rootScope = scopeOf(root, docScope);
  const readEntryAt = (el: XmlElement, scope: Scope) => {
    const entry = readEntry(ctx, el, scopeOf(el, scope), entries.length);
    if (entry) entries.push(entry);
  };
  if (ctx.version.startsWith('atom')) {
    // Atom 0.3 feeds in the wild sometimes call their entries <item>
    for (const child of root.children) {
      if ('local' in child && (child.local === 'entry' || child.local === 'item'))
        readEntryAt(child, rootScope);
    }
    readChildren(ctx, root, feed, rootScope, FEED_TABLE);
    if (feed.language === undefined && rootScope.lang !== undefined) feed.language = rootScope.lang;
    return { feed, entries };
  }
  if (ctx.version === 'cdf') return readCdf(ctx, root, rootScope);
  // RSS: items inside the channel (0.9x, 2.0) or beside it (0.90, 1.0); image and textinput likewise
  for (const child of root.children) {
    if (!('local' in child)) continue;
    const local = child.local.toLowerCase();
    if (local === 'channel') {
      const channelScope = scopeOf(child, rootScope);
      readChildren(ctx, child, feed, channelScope, FEED_TABLE);
      if (feed.language === undefined && channelScope.lang !== undefined) feed.language = channelScope.lang;
      for (const inner of child.children) {
        if ('local' in inner && inner.local.toLowerCase() === 'item') readEntryAt(inner, channelScope);
      }
    } else if (local === 'item') readEntryAt(child, rootScope);
    else if (local === 'image') readImage(ctx, child, feed, scopeOf(child, rootScope));
    else if (local === 'textinput') readTextInput(ctx, child, feed, scopeOf(child, rootScope));
  }
  return { feed, entries };
}

function readEntry(ctx: ParseContext, el: XmlElement, scope: Scope, index: number): Entry | undefined {
  ctx.entryIndex = index;
  const entry: Target = {};
  try {
    readChildren(ctx, el, entry, scope, ENTRY_TABLE);
    const about = el.attrs['rdf:about']?.trim();
    if (about && entry.id === undefined) entry.id = about;
  } catch (err) {
    // one broken item never takes down the feed: report it and keep what was read
    ctx.diagnostics.add('entry.unreadable', `parse: entry ${index} could not be read: ${String(err)}`, {
      offset: el.offset,
      entry: index,
      field: el.name,
    });
  } finally {
    ctx.entryIndex = undefined;
  }
  return entry;
}

/** Microsoft's Channel Definition Format: attributes HREF and LASTMOD, ABSTRACT for descriptions. */
function readCdf(ctx: ParseContext, root: XmlElement, rootScope: Scope): { feed: Feed; entries: Entry[] } {
  const feed: Target = {};
  const base = lowerKeys(root.attrs)['base']?.trim();
  const scope: Scope = base ? { ...rootScope, base: resolveUrl(base, rootScope.base) } : rootScope;
  readCdfNode(ctx, root, feed, scope);
  const entries: Entry[] = [];
  for (const child of root.children) {
    if (!('local' in child) || child.local.toLowerCase() !== 'item') continue;
    ctx.entryIndex = entries.length;
    const entry: Target = {};
    readCdfNode(ctx, child, entry, scopeOf(child, scope));
    entries.push(entry);
  }
  ctx.entryIndex = undefined;
  return { feed, entries };
}

function readCdfNode(ctx: ParseContext, el: XmlElement, target: Target, scope: Scope): void {
  const attrs = lowerKeys(el.attrs);
  if (attrs['href']) {
    const href = resolveUrl(attrs['href'].trim(), scope.base);
    target.link = href;
    target.links = [{ rel: 'alternate', type: 'text/html', href }];
  }
  if (attrs['lastmod']) setDate(ctx, el, target, 'updated', attrs['lastmod'].trim());
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const local = child.local.toLowerCase();
    const value = trimmedText(child);
    if (value === '') continue;
    const key = el.parent === undefined ? 'subtitle' : 'summary';
    const text: Text = { type: 'text/plain', value };
    if (scope.base !== undefined) text.base = scope.base;
    if (scope.lang !== undefined) text.language = scope.lang;
    if (local === 'title') {
      target.title = value;
      target.titleDetail = text;
    } else if (local === 'abstract') {
      target[key] = value;
      target[`${key}Detail`] = text;
    }
  }
}

function lowerKeys(attrs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in attrs) out[key.toLowerCase()] = attrs[key] as string;
  return out;
}
