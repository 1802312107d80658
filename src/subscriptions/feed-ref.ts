import type { Channel, StoredFeed } from '../model/index.js';
import type { Store } from '../store/index.js';

/** The channels that follow a feed, in channel order. */
export async function channelsFollowing(store: Store, feedId: number): Promise<Channel[]> {
  const [channels, subscriptions] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptions(),
  ]);
  const ids = new Set(subscriptions.filter((s) => s.feedId === feedId).map((s) => s.channelId));
  return channels.filter((c) => ids.has(c.id));
}

/** True when `url` names the feed: its URL, the URL first followed (a page, a moved URL) or its site's. */
export function namesFeed(feed: StoredFeed, url: string): boolean {
  const wanted = comparableUrl(url);
  return [feed.url, feed.originalUrl, feed.siteUrl].some(
    (u) => u !== undefined && comparableUrl(u) === wanted,
  );
}

/** A URL as a reader remembers it: http or https, a trailing slash and the host's case make no difference. */
export function comparableUrl(url: string): string {
  return url
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .replace(/^[^/]+/, (host) => host.toLowerCase());
}

/** The stored feed a URL names (see namesFeed), followed or not; the feed's own URL wins. */
export async function feedNamed(store: Store, url: string): Promise<StoredFeed | undefined> {
  const exact = await store.feeds.findByUrl(url.trim());
  if (exact) return exact;
  return (await store.feeds.list()).find((feed) => namesFeed(feed, url));
}
