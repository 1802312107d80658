import { resolveUrl } from '../../../html/index.js';
import type { Itunes } from '../../../model/index.js';
import type { Handler, Target } from '../../context.js';
import { append, personStringField, RSS_TEXT, textField, trimmedText } from '../fields.js';

const ITUNES_SCHEME = 'http://www.itunes.com/';

function itunesOf(target: Target): Itunes {
  target.itunes ??= {};
  return target.itunes;
}

// itunes:explicit is "yes"/"true"/"explicit" or "no"/"false"/"clean"; anything else says nothing.
const readExplicit: Handler = (_ctx, el, target) => {
  const value = trimmedText(el).toLowerCase();
  if (['yes', 'true', 'explicit'].includes(value)) itunesOf(target).explicit = true;
  else if (['no', 'false', 'clean'].includes(value)) itunesOf(target).explicit = false;
};

const readBlock: Handler = (_ctx, el, target) => {
  itunesOf(target).block = ['yes', 'true'].includes(trimmedText(el).toLowerCase());
};

function itunesString(key: 'duration' | 'type' | 'episode' | 'season' | 'episodeType'): Handler {
  return (_ctx, el, target) => {
    const value = trimmedText(el);
    if (value) itunesOf(target)[key] = value;
  };
}

/** itunes:keywords: comma-separated terms, each a category (once). */
const readKeywords: Handler = (_ctx, el, target) => {
  for (const word of trimmedText(el).split(',')) {
    const term = word.trim();
    if (!term || target.categories?.some((c) => c.term === term)) continue;
    append(target, 'categories', { term, scheme: ITUNES_SCHEME });
  }
};

/** itunes:link rel="image": an early form of itunes:image. */
const readLink: Handler = (ctx, el, target, scope) => {
  if (el.attrs['rel']?.trim() === 'image') readImage(ctx, el, target, scope);
};

/** itunes:image href: the podcast's (or the episode's) artwork. */
const readImage: Handler = (_ctx, el, target, scope) => {
  const href = (el.attrs['href'] ?? el.attrs['url'] ?? trimmedText(el)).trim();
  if (!href) return;
  const url = resolveUrl(href, scope.base);
  itunesOf(target).image = url;
  target.image ??= { href: url };
};

/** itunes:category text="...", nested for subcategories; each becomes a category. */
const readCategory: Handler = (ctx, el, target, scope) => {
  const term = el.attrs['text']?.trim();
  if (term) {
    target.categories ??= [];
    target.categories.push({ term, scheme: ITUNES_SCHEME });
  }
  for (const child of el.children) {
    if ('local' in child && child.local === 'category') readCategory(ctx, child, target, scope);
  }
};

const readOwner: Handler = (_ctx, el, target) => {
  const owner: { name?: string; email?: string } = {};
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const value = trimmedText(child);
    if (child.local === 'name' && value) owner.name = value;
    if (child.local === 'email' && value) owner.email = value;
  }
  itunesOf(target).owner = owner;
  target.publisherDetail ??= owner;
  const display = owner.name ?? owner.email;
  if (display !== undefined) target.publisher ??= display;
};

/** iTunes podcast elements, at feed and at entry level. */
export function itunes(level: 'feed' | 'entry'): [string, Handler][] {
  return [
    ['itunes:author', personStringField('author')],
    ['itunes:subtitle', textField('subtitle', RSS_TEXT)],
    ['itunes:summary', textField(level === 'feed' ? 'subtitle' : 'summary', RSS_TEXT)],
    ['itunes:explicit', readExplicit],
    ['itunes:block', readBlock],
    ['itunes:duration', itunesString('duration')],
    ['itunes:type', itunesString('type')],
    ['itunes:episode', itunesString('episode')],
    ['itunes:season', itunesString('season')],
    ['itunes:episodetype', itunesString('episodeType')],
    ['itunes:keywords', readKeywords],
    ['itunes:link', readLink],
    ['itunes:image', readImage],
    ['itunes:category', readCategory],
    ['itunes:owner', readOwner],
  ];
}
