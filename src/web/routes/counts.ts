import type { WebContext } from '../env.js';
import { channelCountKey, feedCountKey } from '../views/sidebar.js';

/**
 * The unread counts a reading page draws, by the key of each drawn number (`data-count`): All unread,
 * every channel, and the given feeds under each channel that follows them; and how many entries are
 * saved. An action's JSON answer carries them so that the page's script sets every number at once from
 * the server's counts (issue 22: after `m` the channel's count dropped while All unread and the feed's
 * stayed stale until a reload).
 */
export interface DrawnCounts {
  unread: Record<string, number>;
  saved: number;
}

/** The counts after an action on entries of these feeds, read from the same kept counts as the sidebar. */
export async function drawnCounts(ctx: WebContext, feedIds: readonly number[]): Promise<DrawnCounts> {
  const { store } = ctx.deps;
  const [channels, feeds, saved] = await Promise.all([
    store.reading.channelSummaries(),
    feedIds.length > 0 ? store.channels.listSubscriptionRefs({ feedIds }) : [],
    store.sync.count({ savedOnly: true }),
  ]);
  const unread: Record<string, number> = { all: 0 };
  const uidOf = new Map(channels.map((ch) => [ch.id, ch.uid]));
  for (const ch of channels) {
    unread[channelCountKey(ch.uid)] = ch.unread;
    unread['all'] = (unread['all'] ?? 0) + ch.unread;
  }
  for (const ref of feeds) {
    const uid = uidOf.get(ref.channelId);
    if (uid !== undefined) unread[feedCountKey(uid, ref.feedId)] = ref.unread;
  }
  return { unread, saved };
}
