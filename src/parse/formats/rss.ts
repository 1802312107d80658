import { resolveUrl } from '../../html/index.js';
import type { Category, EntrySource, Image, Link, TextInput } from '../../model/index.js';
import type { Handler, Target } from '../context.js';
import {
  append,
  dateField,
  personStringField,
  RSS_HTML,
  RSS_TEXT,
  stringField,
  summaryField,
  textField,
  trimmedText,
  urlField,
} from './fields.js';
import { readText } from './read-text.js';

/** RSS `<link>`: the main alternate link, also listed in `links`. */
const readLink: Handler = (_ctx, el, target, scope) => {
  const value = trimmedText(el);
  if (value === '' || el.attrs['href'] !== undefined) return;
  const href = resolveUrl(value, scope.base);
  if (target.link === undefined || target.guidislink) {
    target.link = href;
    target.links ??= [];
    target.links.push({ rel: 'alternate', type: 'text/html', href });
  }
};

/** RSS `<category domain="scheme">term</category>`, and dc:subject. */
export const readCategory: Handler = (_ctx, el, target) => {
  const term = trimmedText(el);
  if (term === '') return;
  const category: Category = { term };
  const domain = el.attrs['domain']?.trim();
  if (domain) category.scheme = domain;
  target.categories ??= [];
  target.categories.push(category);
};

/** A made-up but common `<tags>a, b</tags>` element: one category per comma-separated term. */
const readTagList: Handler = (_ctx, el, target) => {
  for (const term of trimmedText(el).split(',')) {
    const trimmed = term.trim();
    if (trimmed) append(target, 'categories', { term: trimmed });
  }
};

const readGuid: Handler = (_ctx, el, target, scope) => {
  const value = trimmedText(el);
  if (value === '') return;
  const isPermaLink =
    (el.attrs['isPermaLink'] ?? el.attrs['ispermalink'] ?? 'true').trim().toLowerCase() !== 'false';
  target.id = value;
  target.guidislink = isPermaLink && target.link === undefined;
  if (target.guidislink) target.link = resolveUrl(value, scope.base);
};

const readEnclosure: Handler = (_ctx, el, target, scope) => {
  const url = el.attrs['url']?.trim() ?? el.attrs['href']?.trim();
  if (!url) return;
  const href = resolveUrl(url, scope.base);
  const link: Link = { rel: 'enclosure', href };
  const enclosure: { href: string; type?: string; length?: string } = { href };
  const type = el.attrs['type']?.trim();
  const length = el.attrs['length']?.trim();
  if (type) link.type = enclosure.type = type;
  if (length) link.length = enclosure.length = length;
  target.links ??= [];
  target.links.push(link);
  target.enclosures ??= [];
  target.enclosures.push(enclosure);
};

const readSource: Handler = (_ctx, el, target, scope) => {
  const source: EntrySource = {};
  const title = trimmedText(el);
  if (title) source.title = title;
  const url = el.attrs['url']?.trim();
  if (url) source.href = resolveUrl(url, scope.base);
  target.source = source;
};

const readGenerator: Handler = (_ctx, el, target) => {
  const name = trimmedText(el);
  if (name === '' || target.generator !== undefined) return;
  target.generator = name;
  target.generatorDetail = { name };
};

const readCloud: Handler = (_ctx, el, target) => {
  const cloud: NonNullable<Target['cloud']> = {};
  for (const key of ['domain', 'port', 'path', 'registerProcedure', 'protocol'] as const) {
    const value = el.attrs[key] ?? el.attrs[key.toLowerCase()];
    if (value !== undefined) cloud[key] = value;
  }
  target.cloud = cloud;
};

const IMAGE_KEYS: Record<string, keyof Image> = {
  url: 'href',
  title: 'title',
  link: 'link',
  width: 'width',
  height: 'height',
  description: 'description',
};

/** RSS `<image>` (in the channel, or beside it in RSS 1.0). */
export const readImage: Handler = (_ctx, el, target, scope) => {
  const image: Image = target.image ?? {};
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const key = IMAGE_KEYS[child.local.toLowerCase()];
    const value = trimmedText(child);
    if (!key || value === '') continue;
    if (key === 'width' || key === 'height') {
      const n = Number.parseInt(value, 10);
      if (Number.isFinite(n)) image[key] = n;
    } else if (key === 'href' || key === 'link') image[key] = resolveUrl(value, scope.base);
    else image[key] = value;
  }
  if (el.attrs['rdf:resource'] && image.href === undefined)
    image.href = resolveUrl(el.attrs['rdf:resource'], scope.base);
  target.image = image;
};

/** RSS `<textInput>` (in the channel, or beside it in RSS 1.0). */
export const readTextInput: Handler = (_ctx, el, target, scope) => {
  const input: TextInput = target.textinput ?? {};
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const key = child.local.toLowerCase();
    const value = trimmedText(child);
    if (value === '') continue;
    if (key === 'title' || key === 'description' || key === 'name') input[key] = value;
    else if (key === 'link') input.link = resolveUrl(value, scope.base);
  }
  target.textinput = input;
};

/** Content given as XHTML `<body>` or `<fullitem>` inside an item. */
function contentHandler(type: 'html' | 'xhtml'): Handler {
  return (ctx, el, target, scope) => {
    const text = readText(
      ctx,
      el,
      scope,
      type === 'html' ? RSS_HTML : { ...RSS_HTML, fallback: 'application/xhtml+xml' },
    );
    if (text.value === '') return;
    target.content ??= [];
    target.content.push(text);
  };
}

/** Elements of RSS 0.9x/1.0/2.0 read at channel and at item level. */
const COMMON: [string, Handler][] = [
  ['title', textField('title', RSS_TEXT)],
  ['link', readLink],
  ['language', stringField('language')],
  ['copyright', textField('rights', RSS_TEXT)],
  ['category', readCategory],
  ['pubdate', dateField('published')],
  ['lastbuilddate', dateField('updated')],
];

/** Handlers for RSS elements of the channel. */
export const RSS_FEED = new Map<string, Handler>([
  ...COMMON,
  ['description', textField('subtitle', RSS_HTML)],
  ['managingeditor', personStringField('author')],
  ['author', personStringField('author')],
  ['webmaster', personStringField('publisher')],
  ['generator', readGenerator],
  ['docs', urlField('docs')],
  ['ttl', stringField('ttl')],
  ['cloud', readCloud],
  ['image', readImage],
  ['textinput', readTextInput],
]);

/** Handlers for RSS elements of an item. */
export const RSS_ENTRY = new Map<string, Handler>([
  ...COMMON,
  ['description', summaryField(RSS_HTML)],
  ['summary', summaryField(RSS_HTML)],
  ['tags', readTagList],
  ['author', personStringField('author')],
  ['guid', readGuid],
  ['enclosure', readEnclosure],
  ['comments', urlField('comments')],
  ['source', readSource],
  ['expirationdate', dateField('expired')],
  ['body', contentHandler('xhtml')],
  ['xhtml:body', contentHandler('xhtml')],
  ['fullitem', contentHandler('html')],
]);
