import { decodeHTMLStrict } from 'entities/decode';
import { resolveUrl } from '../../html/index.js';
import type { Entry, Feed, FeedVersion, Person } from '../../model/index.js';
import type { ParseContext, Scope, Target } from '../context.js';
import type { XmlElement } from '../xml/index.js';
import { append, setDate } from './fields.js';
import { sanitizeReported } from './read-text.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The JSON Feed version a document declares, or undefined when it is not a JSON Feed. */
export function detectJsonVersion(doc: unknown): FeedVersion | undefined {
  if (!isObject(doc)) return undefined;
  const version = str(doc['version']) ?? '';
  if (/^https?:\/\/jsonfeed\.org\/version\/1\.1\/?$/.test(version)) return 'json11';
  if (/^https?:\/\/jsonfeed\.org\/version\//.test(version)) return 'json1';
  if (Array.isArray(doc['items']) && (doc['title'] !== undefined || doc['home_page_url'] !== undefined))
    return 'json1';
  return undefined;
}

/**
 * A title as text. JSON Feed titles are plain text, yet WordPress and other generators write them with
 * HTML character references ("Blog &#8211; InfluxData"), which readers decode (issue 22). Only complete
 * references are decoded (`&amp;`, `&#8211;`, `&hellip;`); a bare `&` or `&lt` stays as it is.
 */
function titleText(value: unknown): string | undefined {
  const title = str(value);
  return title?.includes('&') ? decodeHTMLStrict(title).trim() || undefined : title;
}

// Date fields point at no XML element; this stands in for one so diagnostics name the key.
function fieldEl(name: string): XmlElement {
  return { name, local: name, ns: '', attrs: {}, children: [], parent: undefined, offset: -1, scope: {} };
}

function readPeople(obj: Json, scope: Scope): Person[] {
  const list = Array.isArray(obj['authors'])
    ? obj['authors']
    : obj['author'] !== undefined
      ? [obj['author']]
      : [];
  const people: Person[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const person: Person = {};
    const name = str(item['name']);
    const url = str(item['url']);
    const avatar = str(item['avatar']);
    if (name) person.name = name;
    if (url) person.uri = resolveUrl(url, scope.base);
    // JSON Feed's avatar is the person's picture: Microsub clients show it as the author's photo
    if (avatar) person.photo = resolveUrl(avatar, scope.base);
    if (Object.keys(person).length > 0) people.push(person);
  }
  return people;
}

function setPeople(target: Target, people: Person[]): void {
  if (people.length === 0) return;
  target.authors = people;
  target.authorDetail = people[0] as Person;
  const first = people[0]?.name;
  if (first) target.author = first;
}

function setLink(target: Target, rel: string, href: string | undefined, scope: Scope): string | undefined {
  if (!href) return undefined;
  const url = resolveUrl(href, scope.base);
  append(target, 'links', {
    rel,
    type: rel === 'self' ? 'application/feed+json' : 'text/html',
    href: url,
  });
  return url;
}

/** Reads a JSON Feed (1.0 or 1.1) document. */
export function readJsonFeed(ctx: ParseContext, doc: Json, scope: Scope): { feed: Feed; entries: Entry[] } {
  const feed: Target = {};
  const title = titleText(doc['title']);
  if (title) {
    feed.title = title;
    feed.titleDetail = { type: 'text/plain', value: title };
  }
  const link = setLink(feed, 'alternate', str(doc['home_page_url']), scope);
  if (link) feed.link = link;
  const self = setLink(feed, 'self', str(doc['feed_url']), scope);
  if (self) feed.self = self;
  const description = str(doc['description']);
  if (description) {
    feed.subtitle = description;
    feed.subtitleDetail = { type: 'text/plain', value: description };
  }
  const next = str(doc['next_url']);
  if (next) feed.next = resolveUrl(next, scope.base);
  const icon = str(doc['icon']);
  if (icon) feed.image = { href: resolveUrl(icon, scope.base) };
  const favicon = str(doc['favicon']);
  if (favicon) feed.icon = resolveUrl(favicon, scope.base);
  const language = str(doc['language']);
  if (language) feed.language = language;
  setPeople(feed, readPeople(doc, scope));
  const hubs = Array.isArray(doc['hubs']) ? doc['hubs'].filter(isObject).map((h) => str(h['url'])) : [];
  if (hubs.some(Boolean)) feed.hubs = hubs.filter((h): h is string => h !== undefined);
  const items = Array.isArray(doc['items']) ? doc['items'] : [];
  const entries: Entry[] = [];
  items.forEach((item, index) => {
    ctx.entryIndex = index;
    if (isObject(item)) entries.push(readItem(ctx, item, scope));
    else
      ctx.diagnostics.add('entry.unreadable', `parse: item ${index} is not a JSON object`, { entry: index });
  });
  ctx.entryIndex = undefined;
  return { feed, entries };
}

function readItem(ctx: ParseContext, item: Json, scope: Scope): Entry {
  const entry: Target = {};
  const id = str(item['id']);
  if (id) entry.id = id;
  const link = setLink(entry, 'alternate', str(item['url']), scope);
  if (link) entry.link = link;
  const external = str(item['external_url']);
  if (external) entry.externalUrl = setLink(entry, 'related', external, scope) as string;
  const title = titleText(item['title']);
  if (title) {
    entry.title = title;
    entry.titleDetail = { type: 'text/plain', value: title };
  }
  const html = str(item['content_html']);
  const text = str(item['content_text']);
  if (html)
    append(entry, 'content', {
      type: 'text/html',
      value: sanitizeReported(ctx, undefined, html, scope.base),
    });
  if (text) append(entry, 'content', { type: 'text/plain', value: text });
  const summary = str(item['summary']);
  if (summary) {
    entry.summary = summary;
    entry.summaryDetail = { type: 'text/plain', value: summary };
  }
  const image = str(item['image']);
  if (image) entry.image = { href: resolveUrl(image, scope.base) };
  const published = str(item['date_published']);
  if (published) setDate(ctx, fieldEl('date_published'), entry, 'published', published);
  const modified = str(item['date_modified']);
  if (modified) setDate(ctx, fieldEl('date_modified'), entry, 'updated', modified);
  setPeople(entry, readPeople(item, scope));
  const language = str(item['language']);
  if (language) entry.language = language;
  if (Array.isArray(item['tags'])) {
    const tags = item['tags'].map(str).filter((t): t is string => t !== undefined);
    if (tags.length > 0) entry.categories = tags.map((term) => ({ term }));
  }
  readAttachments(entry, item, scope);
  return entry;
}

function readAttachments(entry: Target, item: Json, scope: Scope): void {
  if (!Array.isArray(item['attachments'])) return;
  for (const attachment of item['attachments']) {
    if (!isObject(attachment)) continue;
    const url = str(attachment['url']);
    if (!url) continue;
    const enclosure: { href: string; type?: string; length?: string } = { href: resolveUrl(url, scope.base) };
    const type = str(attachment['mime_type']);
    const length = str(attachment['size_in_bytes']);
    if (type) enclosure.type = type;
    if (length) enclosure.length = length;
    append(entry, 'enclosures', enclosure);
    append(entry, 'links', { rel: 'enclosure', ...enclosure });
  }
}
