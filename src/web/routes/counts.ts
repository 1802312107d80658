import type { ReadingCounts } from '../../reading/index.js';
import { channelCountKey, feedCountKey } from '../views/index.js';

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

/** The counts a page draws, by key, from the reading module's counts (the same kept counts as the sidebar). */
export function drawnCounts(counts: ReadingCounts): DrawnCounts {
  const unread: Record<string, number> = { all: counts.allUnread };
  const uidOf = new Map(counts.channels.map((ch) => [ch.id, ch.uid]));
  for (const ch of counts.channels) unread[channelCountKey(ch.uid)] = ch.unread;
  for (const ref of counts.feeds) {
    const uid = uidOf.get(ref.channelId);
    if (uid !== undefined) unread[feedCountKey(uid, ref.feedId)] = ref.unread;
  }
  return { unread, saved: counts.saved };
}
