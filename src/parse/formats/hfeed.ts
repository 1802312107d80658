// h-feed and h-entry: microformats2 in an HTML page (https://microformats.org/wiki/h-feed), read with
// microformats-parser into the same Feed and Entry model as the XML and JSON formats. Microsub servers
// must follow such pages (Microsub spec, "Following": the server may subscribe to a URL's
// HTML+Microformats), and many IndieWeb sites publish nothing else.

import { decodeHTMLStrict } from 'entities/decode';
import type { mf2 } from 'microformats-parser';
import { sanitizeHtml } from '../../html/index.js';
import { type Entry, type Feed, MF2_PROPERTIES, type Person } from '../../model/index.js';
import { parseDate } from '../dates/index.js';
import { loadMicroformats } from '../lazy-imports.js';
import { preparePage } from './hfeed-page.js';

type Mf2Document = ReturnType<typeof mf2>;
type Mf2Item = Mf2Document['items'][number];
type Mf2Value = Mf2Item['properties'][string][number];

// microformats-parser refuses to run without an absolute base. A document read without one is parsed
// against this base, which is then removed again, so its relative URLs stay relative: `a/1` under the
// base's folder is `a/1` again, `/a/1` under its origin `/a/1`.
const PLACEHOLDER_ORIGIN = 'https://tidings-no-base.invalid';
const PLACEHOLDER_BASE = `${PLACEHOLDER_ORIGIN}/tidings-no-base/`;
// h-feeds nest inside other items (an h-card's children, a page-wide h-entry); look this deep.
const MAX_SEARCH_DEPTH = 4;
const MICROFORMAT_ROOT_RE = /class\s*=\s*["']?[^"'>]*\bh-(?:feed|entry)\b/i;

/** Reads a page's h-feed (or its top-level h-entries); undefined when the page has neither. */
export function parseHfeed(
  html: string,
  baseUrl: string | undefined,
): { feed: Feed; entries: Entry[] } | undefined {
  // Most pages carry no microformats at all: skip parsing them.
  if (!MICROFORMAT_ROOT_RE.test(html)) return undefined;
  const doc = readMicroformats(html, baseUrl);
  if (doc === undefined) return undefined;
  const hfeed = mainFeed(doc.items);
  const entryItems = hfeed ? childEntries(hfeed) : topEntries(doc.items);
  if (!hfeed && entryItems.length === 0) return undefined;
  const feed = readFeed(hfeed, doc, html, baseUrl);
  const fallbackAuthor = feed.authors?.[0];
  const entries = entryItems.map((item) => readEntry(item, baseUrl, fallbackAuthor));
  return { feed, entries };
}

/** The rel=me links and the rel=microsub endpoint a page announces (IndieWeb discovery), resolved. */
export function pageRels(html: string, baseUrl: string | undefined): { me: string[]; microsub?: string } {
  const doc = /\brel\s*=/i.test(html) ? readMicroformats(html, baseUrl) : undefined;
  const microsub = doc?.rels['microsub']?.[0];
  return { me: doc?.rels['me'] ?? [], ...(microsub ? { microsub } : {}) };
}

function readMicroformats(html: string, baseUrl: string | undefined): Mf2Document | undefined {
  const documentUrl = baseUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl) ? baseUrl : undefined;
  const page = preparePage(html, documentUrl ?? PLACEHOLDER_BASE);
  const base = page.baseUrl?.startsWith(PLACEHOLDER_ORIGIN) ? undefined : page.baseUrl;
  let doc: Mf2Document;
  try {
    doc = loadMicroformats().mf2(page.html, { baseUrl: page.baseUrl ?? PLACEHOLDER_BASE });
  } catch {
    // parsers report, they do not throw: microformats-parser throws on input it cannot take
    return undefined;
  }
  return base ? doc : (withoutPlaceholder(doc) as Mf2Document);
}

/** A copy of a parsed value with the placeholder origin taken out of every string. */
function withoutPlaceholder(value: unknown): unknown {
  if (typeof value === 'string')
    return value.replaceAll(PLACEHOLDER_BASE, '').replaceAll(PLACEHOLDER_ORIGIN, '');
  if (Array.isArray(value)) return value.map(withoutPlaceholder);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutPlaceholder(v)]));
  return value;
}

function hasType(item: Mf2Item, type: string): boolean {
  return item.type?.includes(type) ?? false;
}

/** The h-entries among an item's children. */
function childEntries(item: Mf2Item): Mf2Item[] {
  return (item.children ?? []).filter((child) => hasType(child, 'h-entry'));
}

/** Every item of this type down to MAX_SEARCH_DEPTH, breadth first. */
function findItems(items: readonly Mf2Item[], type: string, depth = 0, out: Mf2Item[] = []): Mf2Item[] {
  for (const item of items) if (hasType(item, type)) out.push(item);
  if (depth < MAX_SEARCH_DEPTH)
    for (const item of items) findItems(item.children ?? [], type, depth + 1, out);
  return out;
}

/**
 * The page's h-feed: of several (a sidebar's list of links beside the list of posts), the one with the
 * most h-entries, the first of those.
 */
function mainFeed(items: readonly Mf2Item[]): Mf2Item | undefined {
  let best: Mf2Item | undefined;
  let most = -1;
  for (const feed of findItems(items, 'h-feed')) {
    const count = childEntries(feed).length;
    if (count > most) [best, most] = [feed, count];
  }
  return best;
}

/**
 * Without an h-feed: the page's top-level h-entries, else those one level inside a top-level item (the
 * posts a site's h-card holds, as a page of an IndieWeb site often has them).
 */
function topEntries(items: readonly Mf2Item[]): Mf2Item[] {
  const top = items.filter((item) => hasType(item, 'h-entry'));
  if (top.length > 0) return top;
  return items.flatMap(childEntries);
}

function isItem(value: Mf2Value | undefined): value is Mf2Item {
  return typeof value === 'object' && value !== null && 'properties' in value;
}

/** A property value as text: a string, an image's URL, an embedded item's value or name. */
function textOf(value: Mf2Value | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (isItem(value)) {
    if (typeof value.value === 'string') return value.value;
    return textOf(value.properties['name']?.[0]);
  }
  return value.value;
}

/** A property value as a URL: a string, an image, or an embedded item's (h-cite, h-card) url. */
function urlOf(value: Mf2Value | undefined): string | undefined {
  if (isItem(value)) return textOf(value.properties['url']?.[0]) ?? textOf(value);
  return textOf(value);
}

function first(item: Mf2Item, name: string): string | undefined {
  const text = textOf(item.properties[name]?.[0])?.trim();
  return text === '' ? undefined : text;
}

function urls(item: Mf2Item, name: string): string[] {
  const found = (item.properties[name] ?? []).map(urlOf).filter((u): u is string => !!u && u.trim() !== '');
  return [...new Set(found.map((u) => u.trim()))];
}

/** An author: an h-card (name, url, photo), or a string that is a name or a URL. */
function personOf(value: Mf2Value | undefined): Person | undefined {
  if (value === undefined) return undefined;
  const person: Person = {};
  if (isItem(value)) {
    const name = first(value, 'name');
    const uri = urls(value, 'url')[0];
    const photo = urls(value, 'photo')[0];
    if (name) person.name = name;
    if (uri) person.uri = uri;
    if (photo) person.photo = photo;
  } else {
    const text = textOf(value)?.trim();
    if (text && /^https?:\/\//i.test(text)) person.uri = text;
    else if (text) person.name = text;
  }
  return Object.keys(person).length > 0 ? person : undefined;
}

function readFeed(
  hfeed: Mf2Item | undefined,
  doc: Mf2Document,
  html: string,
  baseUrl: string | undefined,
): Feed {
  const feed: Feed = {};
  const title = (hfeed && first(hfeed, 'name')) ?? pageTitle(html);
  if (title) {
    feed.title = title;
    feed.titleDetail = { type: 'text/plain', value: title };
  }
  const link = (hfeed && urls(hfeed, 'url')[0]) ?? baseUrl;
  if (link) {
    feed.link = link;
    feed.links = [{ rel: 'alternate', type: 'text/html', href: link }];
  }
  if (hfeed) {
    const uid = first(hfeed, 'uid');
    if (uid) feed.id = uid;
    const summary = first(hfeed, 'summary');
    if (summary) {
      feed.subtitle = summary;
      feed.subtitleDetail = { type: 'text/plain', value: summary };
    }
    const photo = urls(hfeed, 'photo')[0];
    if (photo) feed.image = { href: photo };
  }
  // WebSub discovery in HTML (W3C WebSub 4): <link rel="hub"> and <link rel="self">
  const hubs = doc.rels['hub'];
  if (hubs?.length) feed.hubs = hubs;
  const self = doc.rels['self']?.[0];
  if (self) feed.self = self;
  const author = (hfeed && personOf(hfeed.properties['author']?.[0])) ?? representativeCard(doc, link);
  if (author) setAuthors(feed, [author]);
  return feed;
}

/** The page's own h-card (its url is the page's), the author of entries that name none (authorship). */
function representativeCard(doc: Mf2Document, pageUrl: string | undefined): Person | undefined {
  const cards = doc.items.filter((item) => hasType(item, 'h-card'));
  const own = cards.find(
    (card) => pageUrl !== undefined && urls(card, 'url').some((u) => sameUrl(u, pageUrl)),
  );
  return personOf(own ?? (cards.length === 1 ? cards[0] : undefined));
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
}

function pageTitle(html: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html.slice(0, 65_536));
  const title = match?.[1] ? decodeHTMLStrict(match[1]).replace(/\s+/g, ' ').trim() : '';
  return title === '' ? undefined : title;
}

function setAuthors(target: Feed | Entry, people: Person[]): void {
  const [lead] = people;
  if (!lead) return;
  target.authors = people;
  target.authorDetail = lead;
  const name = lead.name ?? lead.uri;
  if (name) target.author = name;
}

function readEntry(item: Mf2Item, baseUrl: string | undefined, fallbackAuthor: Person | undefined): Entry {
  const entry: Entry = {};
  const url = urls(item, 'url')[0];
  if (url) {
    entry.link = url;
    entry.links = [{ rel: 'alternate', type: 'text/html', href: url }];
  }
  const uid = first(item, 'uid') ?? url;
  if (uid) entry.id = uid;
  readContent(entry, item, baseUrl);
  readDates(entry, item);
  const authors = (item.properties['author'] ?? []).map(personOf).filter((p): p is Person => p !== undefined);
  setAuthors(entry, authors.length > 0 ? authors : fallbackAuthor ? [fallbackAuthor] : []);
  const categories = (item.properties['category'] ?? []).map(textOf).filter((c): c is string => !!c?.trim());
  if (categories.length > 0) entry.categories = categories.map((term) => ({ term: term.trim() }));
  const mf2Props = readReferences(item);
  if (Object.keys(mf2Props).length > 0) entry.mf2 = mf2Props;
  return entry;
}

function readContent(entry: Entry, item: Mf2Item, baseUrl: string | undefined): void {
  const content = item.properties['content']?.[0];
  let contentText: string | undefined;
  if (content !== undefined && typeof content === 'object' && 'html' in content) {
    const options = baseUrl ? { baseUrl } : {};
    entry.content = [{ type: 'text/html', value: sanitizeHtml(content.html.trim(), options) }];
    contentText = content.value;
  } else if (content !== undefined) {
    contentText = textOf(content)?.trim();
    if (contentText) entry.content = [{ type: 'text/plain', value: contentText }];
  }
  const summary = first(item, 'summary');
  if (summary) {
    entry.summary = summary;
    entry.summaryDetail = { type: 'text/plain', value: summary };
  }
  // a title is one line: an implied name is the entry's text content, across its lines and indents
  const name = first(item, 'name')?.replace(/\s+/g, ' ').trim();
  // A note's implied name is its whole text (microformats2 parsing): a name that merely repeats the
  // start of the content is no title.
  if (name && !startsWithText(contentText ?? summary, name)) {
    entry.title = name;
    entry.titleDetail = { type: 'text/plain', value: name };
  }
}

function startsWithText(text: string | undefined, name: string): boolean {
  if (text === undefined) return false;
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const prefix = squash(name).replace(/(\.\.\.|…)$/, '');
  return prefix !== '' && squash(text).startsWith(prefix);
}

function readDates(entry: Entry, item: Mf2Item): void {
  const published = first(item, 'published');
  if (published) {
    entry.publishedRaw = published;
    const iso = parseDate(published);
    if (iso) entry.published = iso;
  }
  const updated = first(item, 'updated');
  if (updated) {
    entry.updatedRaw = updated;
    const iso = parseDate(updated);
    if (iso) entry.updated = iso;
  }
}

function readReferences(item: Mf2Item): NonNullable<Entry['mf2']> {
  const out: NonNullable<Entry['mf2']> = {};
  for (const [key, property] of Object.entries(MF2_PROPERTIES) as [keyof typeof MF2_PROPERTIES, string][]) {
    const found = urls(item, property);
    if (found.length > 0) out[key] = found;
  }
  return out;
}
