import type { Channel, StoredFeed } from '../model/index.js';
import type { Store } from '../store/index.js';
import { batchesWithinBudget } from './page-budget.js';

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
}

/** Reads what the apps see of channels and subscriptions. */
export async function appFeeds(store: Store): Promise<AppFeeds> {
  const [channels, subscriptions, savedIds] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptions(),
    store.sync.ids({ savedOnly: true }),
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
  // the saved entries' feeds, read a page's byte budget of entries at a time: saved entries of any size
  // never sit in memory all at once (issue 22)
  const kept = new Set<number>();
  for await (const batch of batchesWithinBudget(store, savedIds))
    for (const entry of await store.sync.entries(batch)) kept.add(entry.feedId);
  for (const feedId of kept) {
    if (feeds.has(feedId)) continue;
    const feed = await store.feeds.get(feedId);
    if (feed) feeds.set(feedId, feed);
  }
  for (const list of foldersOf.values()) list.sort((a, b) => a.position - b.position || a.id - b.id);
  const followed = new Set(subscriptions.map((s) => s.feed.id));
  return { folders, feeds: [...feeds.values()].sort((a, b) => a.id - b.id), foldersOf, followed };
}
