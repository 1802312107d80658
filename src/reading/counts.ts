import type { ChannelSummary, Store, SubscriptionRef } from '../store/index.js';

/**
 * The counts a reader shows, all read from the kept counts: every channel's unread entries, All unread
 * (each entry once, however many channels follow its feed: issue 22), the unread entries of some feeds in
 * each channel that follows them, and how many entries are saved. After any action on entries, a front
 * end asks them again for the feeds of the entries it changed and draws every number at once.
 */
export interface ReadingCounts {
  /** Every channel in order, with its unread count and how many feeds it follows. */
  channels: ChannelSummary[];
  /** The entries All unread lists. */
  allUnread: number;
  /** The feeds asked for, under each channel that follows them, with their unread counts. */
  feeds: SubscriptionRef[];
  saved: number;
}

/** The reader's counts, with those of these feeds in each channel that follows them. */
export async function readingCounts(store: Store, feedIds: readonly number[] = []): Promise<ReadingCounts> {
  const [{ channels, allUnread }, feeds, saved] = await Promise.all([
    store.reading.overview(),
    feedIds.length > 0 ? store.channels.listSubscriptionRefs({ feedIds }) : [],
    store.sync.count({ savedOnly: true }),
  ]);
  return { channels, allUnread, feeds, saved };
}

/** The reader's counts after an action on these entries: with those of their feeds (unknown ids add none). */
export async function countsAfter(store: Store, entryIds: readonly number[]): Promise<ReadingCounts> {
  const entries = await Promise.all(entryIds.map((id) => store.entries.get(id)));
  const feedIds = [...new Set(entries.flatMap((entry) => (entry ? [entry.feedId] : [])))];
  return readingCounts(store, feedIds);
}
