import type { Channel, StoredFeed } from '../model/index.js';
import type { Store } from '../store/index.js';

/** The feeds and folders the apps see: channels as folders, feeds with the channels that follow them. */
export interface AppFeeds {
  /** Channels other than Microsub's notifications, in channel order. */
  folders: Channel[];
  /** Followed feeds, then feeds no channel follows any more that keep saved entries; by id. */
  feeds: StoredFeed[];
  /** The folders that follow each feed (none for a feed kept only for its saved entries). */
  foldersOf: Map<number, Channel[]>;
  /** The feeds some channel follows (notifications included). */
  followed: Set<number>;
  /** Each feed's title as the person sees it (their own, else the feed's), by feed id. */
  titles: Map<number, string>;
}

/** Reads what the apps see of channels and subscriptions. */
export async function appFeeds(store: Store): Promise<AppFeeds> {
  const [channels, subscriptions, savedFeedIds] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptions(),
    store.sync.savedFeedIds(),
  ]);
  const folders = channels.filter((channel) => channel.uid !== 'notifications');
  const byId = new Map(channels.map((channel) => [channel.id, channel]));
  const feeds = new Map<number, StoredFeed>();
  const foldersOf = new Map<number, Channel[]>();
  for (const subscription of subscriptions) {
    feeds.set(subscription.feed.id, subscription.feed);
    const channel = byId.get(subscription.channelId);
    if (channel === undefined || channel.uid === 'notifications') continue;
    foldersOf.set(subscription.feed.id, [...(foldersOf.get(subscription.feed.id) ?? []), channel]);
  }
  // the saved entries' feeds, read without the entries (issue 22: their content could be any size)
  for (const feedId of savedFeedIds) {
    if (feeds.has(feedId)) continue;
    const feed = await store.feeds.get(feedId);
    if (feed) feeds.set(feedId, feed);
  }
  for (const list of foldersOf.values()) list.sort((a, b) => a.position - b.position || a.id - b.id);
  const followed = new Set(subscriptions.map((s) => s.feed.id));
  const titles = new Map<number, string>();
  for (const feed of feeds.values()) if (feed.title !== undefined) titles.set(feed.id, feed.title);
  return { folders, feeds: [...feeds.values()].sort((a, b) => a.id - b.id), foldersOf, followed, titles };
}
