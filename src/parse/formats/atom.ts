import { resolveUrl } from '../../html/index.js';
import type { Category, Link } from '../../model/index.js';
import { type Handler, type ParseContext, readChildren, type Scope, type Target } from '../context.js';
import type { XmlElement } from '../xml/index.js';
import { addPerson, append, dateField, readPersonElement, setText, trimmedText, urlField } from './fields.js';
import { readText, type TextOptions } from './read-text.js';

// Atom 1.0 wraps XHTML in one xhtml:div that is not part of the content; Atom 0.3 does not.
const ATOM10_TEXT: TextOptions = { fallback: 'text/plain', guessHtml: false, unwrapDiv: true };
const ATOM03_TEXT: TextOptions = { fallback: 'text/plain', guessHtml: false, unwrapDiv: false };

function textOptions(ctx: ParseContext): TextOptions {
  return ctx.version === 'atom10' ? ATOM10_TEXT : ATOM03_TEXT;
}
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function atomText(key: 'title' | 'subtitle' | 'summary' | 'rights' | 'info'): Handler {
  return (ctx, el, target, scope) => {
    setText(target, key, readText(ctx, el, scope, textOptions(ctx)));
  };
}

const readContent: Handler = (ctx, el, target, scope) => {
  const src = el.attrs['src']?.trim();
  if (src && el.children.length === 0) {
    // out-of-line content (RFC 4287 4.1.3.2): no text here, the content is at src. An image, audio or
    // video is the entry's enclosure, as a link rel=enclosure would be; anything else its link when it
    // has none. No empty content is made up.
    const href = resolveUrl(src, scope.base);
    const type = el.attrs['type']?.trim();
    const link = { rel: 'enclosure', href, ...(type ? { type } : {}) } as Link;
    if (type && /^(?:image|audio|video)\//i.test(type)) addEnclosure(target, href, link);
    else target.link ??= href;
    return;
  }
  const text = readText(ctx, el, scope, textOptions(ctx));
  target.content ??= [];
  target.content.push(text);
};

/** atom:link (also inside RSS): every link is listed; the first HTML alternate is the main link. */
export const readAtomLink: Handler = (_ctx, el, target, scope) => {
  const rel = el.attrs['rel']?.trim() || 'alternate';
  const href = el.attrs['href'];
  const raw = href === undefined ? trimmedText(el) : href.trim();
  const link: Link = {
    rel,
    type: el.attrs['type']?.trim() || (rel === 'self' ? 'application/atom+xml' : 'text/html'),
  } as Link;
  // href="" is the base itself (fixture: wellformed/base/feed_link_xml_base_iri.xml)
  if (raw !== '' || (href !== undefined && scope.base !== undefined)) link.href = resolveUrl(raw, scope.base);
  for (const key of ['title', 'hreflang', 'length'] as const) {
    const value = el.attrs[key]?.trim();
    if (value) link[key] = value;
  }
  target.links ??= [];
  target.links.push(link);
  if (link.href === undefined) return;
  if (rel === 'alternate' && HTML_TYPES.has(link.type ?? '') && !hasAlternate(target))
    target.link = link.href;
  else if (rel === 'enclosure') addEnclosure(target, link.href, link);
  else if (rel === 'license') target.license ??= link.href;
  else if (rel === 'self') target.self ??= link.href;
  else if (rel === 'hub') append(target, 'hubs', link.href);
  else if (rel === 'next') target.next ??= link.href;
};

function hasAlternate(target: Target): boolean {
  return target.link !== undefined && !target.guidislink;
}

function addEnclosure(target: Target, href: string, link: Link): void {
  const enclosure: { href: string; type?: string; length?: string } = { href };
  if (link.type) enclosure.type = link.type;
  if (link.length) enclosure.length = link.length;
  target.enclosures ??= [];
  target.enclosures.push(enclosure);
}

const readAuthor: Handler = (_ctx, el, target, scope) => {
  addPerson(target, 'author', readPersonElement(el, scope));
};

const readContributor: Handler = (_ctx, el, target, scope) => {
  target.contributors ??= [];
  target.contributors.push(readPersonElement(el, scope));
};

const readCategory: Handler = (_ctx, el, target) => {
  const category: Category = {};
  for (const key of ['term', 'scheme', 'label'] as const) {
    const value = el.attrs[key]?.trim();
    if (value) category[key] = value;
  }
  if (category.term === undefined && category.label === undefined) {
    const text = trimmedText(el);
    if (text) category.term = text;
  }
  if (Object.keys(category).length === 0) return;
  target.categories ??= [];
  target.categories.push(category);
};

const readGenerator: Handler = (_ctx, el, target, scope) => {
  const name = trimmedText(el);
  const detail: NonNullable<Target['generatorDetail']> = {};
  if (name) detail.name = name;
  const href = el.attrs['uri']?.trim() ?? el.attrs['url']?.trim();
  if (href) detail.href = resolveUrl(href, scope.base);
  const version = el.attrs['version']?.trim();
  if (version) detail.version = version;
  target.generatorDetail = detail;
  if (name) target.generator = name;
};

const readId: Handler = (_ctx, el, target) => {
  const value = trimmedText(el);
  if (value !== '') target.id = value;
};

/** An Atom entry's atom:source: the feed the entry was copied from, read like a feed. */
const readSource: Handler = (ctx, el, target, scope) => {
  const source: Target = {};
  readChildren(ctx, el, source, scope, ATOM_FEED);
  target.source = source;
};

const COMMON: [string, Handler][] = [
  ['atom:title', atomText('title')],
  ['atom:rights', atomText('rights')],
  ['atom:copyright', atomText('rights')],
  ['atom:link', readAtomLink],
  ['atom:id', readId],
  ['atom:updated', dateField('updated')],
  ['atom:modified', dateField('updated')],
  ['atom:published', dateField('published')],
  ['atom:issued', dateField('published')],
  ['atom:created', dateField('created')],
  ['atom:author', readAuthor],
  ['atom:contributor', readContributor],
  ['atom:category', readCategory],
];

/** Handlers for Atom elements of a feed (and of an entry's source). */
export const ATOM_FEED = new Map<string, Handler>([
  ...COMMON,
  ['atom:subtitle', atomText('subtitle')],
  ['atom:tagline', atomText('subtitle')],
  ['atom:info', atomText('info')],
  ['atom:generator', readGenerator],
  ['atom:icon', urlField('icon')],
  ['atom:logo', urlField('logo')],
]);

/** Handlers for Atom elements of an entry. */
export const ATOM_ENTRY = new Map<string, Handler>([
  ...COMMON,
  ['atom:summary', atomText('summary')],
  ['atom:content', readContent],
  ['atom:source', readSource],
]);

/** Reads one Atom entry element. */
export function readAtomEntry(ctx: ParseContext, el: XmlElement, target: Target, scope: Scope): void {
  readChildren(ctx, el, target, scope, ATOM_ENTRY);
}
