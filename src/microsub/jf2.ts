// Entries as jf2 (https://jf2.spec.indieweb.org), the shape Microsub timelines carry: arrays for the
// multi-valued properties clients iterate (photo, category, in-reply-to ...), an author card that
// always has something to show, and the Microsub extensions _id, _is_read and _source.

import { htmlToText } from '../html/index.js';
import type { StoredEntry, StoredFeed } from '../model/index.js';
import { entryDate, entryMediaOf, mediaKindOf } from '../model/index.js';
import type { TimelineEntry } from '../store/index.js';
import { safeLink, safeLinks, safeUid } from './links.js';

/** A jf2 card: the author of an entry. */
export interface Jf2Card {
  type: 'card';
  name?: string;
  url?: string;
  photo?: string;
}

/** A jf2 entry as a Microsub timeline item. */
export interface Jf2Entry {
  type: 'entry';
  uid?: string;
  url?: string;
  name?: string;
  summary?: string;
  content?: { text?: string; html?: string };
  published?: string;
  updated?: string;
  author?: Jf2Card;
  category?: string[];
  photo?: string[];
  video?: string[];
  audio?: string[];
  syndication?: string[];
  'in-reply-to'?: string[];
  'like-of'?: string[];
  'repost-of'?: string[];
  'bookmark-of'?: string[];
  _id?: string;
  _is_read?: boolean;
  /** Saved (starred), shared with the Google Reader and Fever APIs; a tidings extension. */
  _is_saved?: boolean;
  _source?: string;
}

/** What jf2 needs of an entry: a stored one, or one just parsed (preview). */
export type Jf2Source = Pick<StoredEntry, 'guid' | 'authors' | 'categories' | 'enclosures' | 'extra'> &
  Partial<
    Pick<
      StoredEntry,
      'url' | 'title' | 'summary' | 'contentHtml' | 'contentText' | 'published' | 'updated' | 'firstSeenAt'
    >
  >;

/**
 * What jf2 needs of the entry's feed: the author card falls back to it. `iconUrl` is the icon to show:
 * Microsub passes tidings' URL of the stored icon (feed-icon.ts), never the publisher's.
 */
export type Jf2Feed = Pick<StoredFeed, 'url'> & Partial<Pick<StoredFeed, 'title' | 'siteUrl' | 'iconUrl'>>;

/** The Microsub state of an entry: its id, read state in the channel, and feed id. */
export interface Jf2State {
  id?: number;
  isRead?: boolean;
  isSaved?: boolean;
  feedId?: number;
}

// Properties kept in StoredEntry.extra under their jf2 names (see poll/entries.ts).
const REFERENCE_PROPERTIES = ['in-reply-to', 'like-of', 'repost-of', 'bookmark-of', 'syndication'] as const;

/** A timeline entry (with its feed and read state) as a jf2 item. */
export function timelineItem(entry: TimelineEntry): Jf2Entry {
  return toJf2(entry, entry.feed, {
    id: entry.id,
    isRead: entry.isRead,
    feedId: entry.feedId,
    ...(entry.isSaved === undefined ? {} : { isSaved: entry.isSaved }),
  });
}

/**
 * Returns the jf2 form of an entry; empty properties are left out. Every URL a feed gave (link, media,
 * references, the author's page and photo, the site) follows the URL policy of every output
 * (microsub/links.ts): one that is not absolute http(s) is left out. The content's HTML was sanitized
 * when it was stored, by the rules the web UI shows it with.
 */
export function toJf2(entry: Jf2Source, feed: Jf2Feed | undefined, state: Jf2State = {}): Jf2Entry {
  const item: Jf2Entry = { type: 'entry' };
  const uid = entry.guid ? safeUid(entry.guid) : undefined;
  if (uid) item.uid = uid;
  const url = safeLink(entry.url);
  if (url) item.url = url;
  const content = contentOf(entry);
  const name = nameOf(entry.title, content?.text ?? entry.summary);
  if (name) item.name = name;
  if (entry.summary) item.summary = entry.summary;
  if (content) item.content = content;
  // published, else updated, else first seen: the order every view uses (model/entry-date.ts)
  const published = entryDate(entry);
  if (published) item.published = published;
  if (entry.updated) item.updated = entry.updated;
  const author = authorOf({ ...entry, authors: entry.authors.map(safePerson) }, feed && safeSite(feed));
  if (author) item.author = author;
  if (entry.categories.length > 0) item.category = [...entry.categories];
  addMedia(item, entry);
  for (const property of REFERENCE_PROPERTIES) {
    const urls = safeLinks(stringsOf(entry.extra[property]));
    if (urls.length > 0) item[property] = urls;
  }
  if (state.id !== undefined) item._id = String(state.id);
  if (state.isRead !== undefined) item._is_read = state.isRead;
  if (state.isSaved !== undefined) item._is_saved = state.isSaved;
  if (state.feedId !== undefined) item._source = String(state.feedId);
  return item;
}

function contentOf(entry: Jf2Source): Jf2Entry['content'] | undefined {
  if (entry.contentHtml) {
    // The poller stores the HTML's text with it; entries stored before it did are converted here.
    const text = (entry.contentText ?? htmlToText(entry.contentHtml)).trim();
    return { html: entry.contentHtml, ...(text ? { text } : {}) };
  }
  if (entry.contentText) return { text: entry.contentText };
  // a YouTube entry's only text is its media:description
  const description = entryMediaOf(entry.extra)?.description;
  return description ? { text: description } : undefined;
}

/**
 * The entry's name, unless it only repeats the start of its text: a note's title in RSS is often its
 * first words, and Aperture drops such names too, so that clients show the entry as a note.
 */
function nameOf(title: string | undefined, text: string | undefined): string | undefined {
  const name = title?.replace(/\s+/g, ' ').trim();
  if (!name) return undefined;
  const prefix = name.replace(/(\.\.\.|…)$/, '').trim();
  if (text && prefix !== '' && startsWithSpaced(text, prefix)) return undefined;
  return name;
}

const SPACE = /\s/;

/**
 * True when `text`, its whitespace runs read as one space and its leading ones dropped, starts with
 * `prefix` (whose spaces are single). Walks only as far as the prefix: collapsing the whole text first
 * cost a page of long entries a twentieth of a millisecond.
 */
function startsWithSpaced(text: string, prefix: string): boolean {
  let at = 0;
  while (at < text.length && SPACE.test(text.charAt(at))) at += 1;
  for (let i = 0; i < prefix.length; i++) {
    const wanted = prefix.charAt(i);
    if (wanted === ' ') {
      if (at >= text.length || !SPACE.test(text.charAt(at))) return false;
      while (at < text.length && SPACE.test(text.charAt(at))) at += 1;
    } else {
      if (text.charAt(at) !== wanted) return false;
      at += 1;
    }
  }
  return true;
}

/** The author card; what the entry does not say comes from its feed (title, site, icon). */
function authorOf(entry: Jf2Source, feed: Jf2Feed | undefined): Jf2Card | undefined {
  const person = entry.authors.find((a) => a.name || a.uri) ?? entry.authors[0];
  const name = person?.name ?? feed?.title;
  // without an author page, the feed's site, else the feed itself: URLs mute and block rules compare
  const url = person?.uri ?? feed?.siteUrl ?? safeLink(feed?.url);
  const photo = person?.photo ?? feed?.iconUrl;
  if (!name && !url && !photo) return undefined;
  return { type: 'card', ...(name ? { name } : {}), ...(url ? { url } : {}), ...(photo ? { photo } : {}) };
}

type Person = Jf2Source['authors'][number];

/** The person without a page or photo URL that the URL policy keeps back. */
function safePerson(person: Person): Person {
  if (safeLink(person.uri) === person.uri && safeLink(person.photo) === person.photo) return person;
  const { uri, photo, ...rest } = person;
  const safeUri = safeLink(uri);
  const safePhoto = safeLink(photo);
  return { ...rest, ...(safeUri ? { uri: safeUri } : {}), ...(safePhoto ? { photo: safePhoto } : {}) };
}

/** The feed without a site URL that the URL policy keeps back (its icon is the icons' business). */
function safeSite(feed: Jf2Feed): Jf2Feed {
  if (safeLink(feed.siteUrl) === feed.siteUrl) return feed;
  const { siteUrl: _unsafe, ...rest } = feed;
  return rest;
}

const JF2_KIND = { image: 'photo', video: 'video', audio: 'audio' } as const;

/**
 * photo, video and audio: the h-entry properties, then enclosures of that kind (podcasts), then Media
 * RSS (media:content by type, and the thumbnail as a photo when there is none: YouTube). URLs the URL
 * policy keeps back are not counted.
 */
function addMedia(item: Jf2Entry, entry: Jf2Source): void {
  const media = entryMediaOf(entry.extra);
  const found = { photo: new Set<string>(), video: new Set<string>(), audio: new Set<string>() };
  const add = (kind: keyof typeof found, url: string | undefined) => {
    if (url !== undefined && safeLink(url) !== undefined) found[kind].add(url);
  };
  for (const kind of ['photo', 'video', 'audio'] as const)
    for (const url of stringsOf(entry.extra[kind])) add(kind, url);
  for (const enclosure of entry.enclosures) {
    const kind = mediaKindOf(enclosure);
    if (kind) add(JF2_KIND[kind], enclosure.href);
  }
  for (const mediaItem of media?.items ?? []) {
    const kind = mediaKindOf(mediaItem);
    if (kind) add(JF2_KIND[kind], mediaItem.url);
  }
  if (found.photo.size === 0) add('photo', media?.thumbnail);
  for (const kind of ['photo', 'video', 'audio'] as const)
    if (found[kind].size > 0) item[kind] = [...found[kind]];
}

function stringsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/** A title to show where one is needed: the entry's, else "Post by {author or domain}" (issue 4). */
export function displayTitle(entry: Jf2Source, feed: Jf2Feed | undefined): string {
  const title = entry.title?.trim();
  if (title) return title;
  const author = entry.authors.find((a) => a.name)?.name ?? feed?.title;
  if (author) return `Post by ${author}`;
  const host = hostOf(entry.url) ?? hostOf(feed?.siteUrl) ?? hostOf(feed?.url);
  return host ? `Post by ${host}` : 'Post';
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
