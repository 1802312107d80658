import { safeLinkUrl } from '../model/index.js';
import type { AppFeeds } from '../reading/index.js';
import type { SyncEntry } from '../store/index.js';
import { feedStreamId, labelStreamId, longItemId, READ, READING_LIST, STARRED } from './ids.js';

// Items as stream/contents and stream/items/contents give them (the shape FreshRSS serves, which every
// app in README's list reads): times as strings where Google wrote strings, the content in summary.
// Every URL from a feed goes through safeLinkUrl, the one rule of every output: javascript: and data:
// links never reach an app (issue 22).

function ms(iso: string): number {
  return Date.parse(iso);
}

/** One item, with the folders of its feed and its read and starred states as categories. */
export function itemJson(entry: SyncEntry, folders: AppFeeds['foldersOf']): Record<string, unknown> {
  const crawled = ms(entry.firstSeenAt);
  const published = Math.floor(ms(entry.published ?? entry.sortAt) / 1000);
  const categories = [READING_LIST, ...(folders.get(entry.feedId) ?? []).map((f) => labelStreamId(f.name))];
  if (entry.isRead) categories.push(READ);
  if (entry.isSaved) categories.push(STARRED);
  const url = safeLinkUrl(entry.url);
  const item: Record<string, unknown> = {
    id: longItemId(entry.id),
    crawlTimeMsec: String(crawled),
    timestampUsec: String(crawled * 1000),
    published,
    updated: entry.updated ? Math.floor(ms(entry.updated) / 1000) : published,
    title: entry.title ?? '',
    // one link each, empty when the entry has none an app may open: Read You and Fluent Reader take the
    // first element and fail the whole sync on an empty list (FreshRSS sends one, as here)
    canonical: [{ href: url ?? '' }],
    alternate: [{ href: url ?? '', type: 'text/html' }],
    categories,
    origin: {
      streamId: feedStreamId(entry.feedId),
      title: entry.feed.title ?? entry.feed.url,
      htmlUrl: siteUrlOf(entry.feed),
    },
    summary: { direction: 'ltr', content: entry.contentHtml ?? entry.summary ?? '' },
  };
  const author = entry.authors[0]?.name;
  if (author) item['author'] = author;
  const enclosures = safeEnclosures(entry);
  if (enclosures.length > 0)
    item['enclosure'] = enclosures.map((e) => ({
      href: e.href,
      ...(e.type ? { type: e.type } : {}),
      // a number, as FreshRSS sends it (apps decode it as one); a length that is no number is left out
      ...(e.length && /^\d{1,15}$/.test(e.length) ? { length: Number(e.length) } : {}),
    }));
  return item;
}

/** A feed's site for the apps (`htmlUrl`): its site when that is an http(s) URL, else the feed's own URL. */
export function siteUrlOf(feed: { url: string; siteUrl?: string | undefined }): string {
  return safeLinkUrl(feed.siteUrl) ?? safeLinkUrl(feed.url) ?? '';
}

/** The entry's enclosures whose URL an app may follow. */
export function safeEnclosures(entry: SyncEntry): SyncEntry['enclosures'] {
  return entry.enclosures.flatMap((e) => {
    const href = safeLinkUrl(e.href);
    return href ? [{ ...e, href }] : [];
  });
}
