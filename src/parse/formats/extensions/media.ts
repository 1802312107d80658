import { htmlToText, resolveUrl, sanitizeHtml } from '../../../html/index.js';
import type { Media, MediaContent } from '../../../model/index.js';
import type { Handler, Target } from '../../context.js';
import type { XmlElement } from '../../xml/index.js';
import { append, RSS_TEXT, setText, trimmedText } from '../fields.js';
import { readText } from '../read-text.js';

const MEDIA_CATEGORY_SCHEME = 'http://search.yahoo.com/mrss/category_schema';

function mediaOf(target: Target): Media {
  target.media ??= {};
  return target.media;
}

function intAttr(el: XmlElement, name: string): number | undefined {
  const n = Number.parseInt(el.attrs[name] ?? '', 10);
  return Number.isFinite(n) ? n : undefined;
}

const readContent: Handler = (ctx, el, target, scope) => {
  const content: MediaContent = {};
  const url = el.attrs['url']?.trim();
  if (url) content.url = resolveUrl(url, scope.base);
  for (const key of ['type', 'medium', 'duration'] as const) {
    const value = el.attrs[key]?.trim();
    if (value) content[key] = value;
  }
  const size = el.attrs['fileSize']?.trim();
  if (size) content.fileSize = size;
  const width = intAttr(el, 'width');
  const height = intAttr(el, 'height');
  if (width !== undefined) content.width = width;
  if (height !== undefined) content.height = height;
  append(mediaOf(target), 'content', content);
  // media:content may carry its own thumbnails and titles
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const handler = MEDIA_INNER.get(child.local.toLowerCase());
    if (handler) handler(ctx, child, target, scope);
  }
};

const readThumbnail: Handler = (_ctx, el, target, scope) => {
  const url = el.attrs['url']?.trim();
  if (!url) return;
  const thumbnail: { url: string; width?: number; height?: number } = { url: resolveUrl(url, scope.base) };
  const width = intAttr(el, 'width');
  const height = intAttr(el, 'height');
  if (width !== undefined) thumbnail.width = width;
  if (height !== undefined) thumbnail.height = height;
  append(mediaOf(target), 'thumbnails', thumbnail);
};

/**
 * A Media RSS text, kept as plain text (it is shown and searched as text): one declared type="html" is
 * read as the text it shows, so no markup (a script among it) is kept raw.
 */
function mediaString(key: 'title' | 'description' | 'credit'): Handler {
  return (_ctx, el, target) => {
    const raw = trimmedText(el);
    const value = raw && declaredMediaType(el) === 'text/html' ? htmlToText(sanitizeHtml(raw)).trim() : raw;
    if (value) mediaOf(target)[key] ??= value;
  };
}

/** media:title stands in for a missing title (podcast and video feeds often have only this). */
const readTitle: Handler = (ctx, el, target, scope) => {
  mediaString('title')(ctx, el, target, scope);
  if (target.title === undefined)
    setText(target, 'title', readText(ctx, el, scope, { ...RSS_TEXT, fallback: declaredMediaType(el) }));
};

function declaredMediaType(el: XmlElement): 'text/plain' | 'text/html' {
  return el.attrs['type']?.trim().toLowerCase() === 'html' ? 'text/html' : 'text/plain';
}

const readKeywords: Handler = (_ctx, el, target) => {
  const words = trimmedText(el)
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (words.length > 0) mediaOf(target).keywords = words;
};

const readCategory: Handler = (_ctx, el, target) => {
  const term = trimmedText(el);
  if (!term) return;
  const category: { term: string; scheme: string; label?: string } = {
    term,
    scheme: el.attrs['scheme']?.trim() || MEDIA_CATEGORY_SCHEME,
  };
  const label = el.attrs['label']?.trim();
  if (label) category.label = label;
  append(target, 'categories', category);
};

/** media:group holds the same elements as an item. */
const readGroup: Handler = (ctx, el, target, scope) => {
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const handler = MEDIA_INNER.get(child.local.toLowerCase());
    if (handler) handler(ctx, child, target, scope);
  }
};

const MEDIA_INNER = new Map<string, Handler>([
  ['content', readContent],
  ['thumbnail', readThumbnail],
  ['title', readTitle],
  ['description', mediaString('description')],
  ['credit', mediaString('credit')],
  ['keywords', readKeywords],
  ['category', readCategory],
  ['group', readGroup],
]);

/** Media RSS elements (media:content, media:thumbnail, media:group ...). */
export function mediaRss(): [string, Handler][] {
  return [...MEDIA_INNER].map(([local, handler]) => [`media:${local}`, handler]);
}
