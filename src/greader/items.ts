import type { AppFeeds } from '../reading/app-feeds.js';
import type { SyncEntry } from '../store/sync-types.js';
import { feedStreamId, labelStreamId, longItemId, READ, READING_LIST, STARRED } from './ids.js';

// Items as stream/contents and stream/items/contents give them (the shape FreshRSS serves, which every
// app in README's list reads): times as strings where Google wrote strings, the content in summary.

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
  const item: Record<string, unknown> = {
    id: longItemId(entry.id),
    crawlTimeMsec: String(crawled),
    timestampUsec: String(crawled * 1000),
    published,
    updated: entry.updated ? Math.floor(ms(entry.updated) / 1000) : published,
    title: entry.title ?? '',
    canonical: entry.url ? [{ href: entry.url }] : [],
    alternate: entry.url ? [{ href: entry.url, type: 'text/html' }] : [],
    categories,
    origin: {
      streamId: feedStreamId(entry.feedId),
      title: entry.feed.title ?? entry.feed.url,
      htmlUrl: entry.feed.siteUrl ?? entry.feed.url,
    },
    summary: { direction: 'ltr', content: entry.contentHtml ?? entry.summary ?? '' },
  };
  const author = entry.authors[0]?.name;
  if (author) item['author'] = author;
  if (entry.enclosures.length > 0)
    item['enclosure'] = entry.enclosures.map((e) => ({
      href: e.href,
      ...(e.type ? { type: e.type } : {}),
      ...(e.length ? { length: e.length } : {}),
    }));
  return item;
}
