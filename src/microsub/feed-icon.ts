import type { FeedIconUrl } from '../http/index.js';

// Microsub shows a feed's icon (a feed's `photo`, and an entry's author card when the entry names no
// photo) from tidings' own origin: the stored icon at its signed URL (server/feed-icons.ts), or none;
// never the publisher's icon URL, which would make every client ask the publisher's site (issue 22).

/** The feed with the icon Microsub shows in `iconUrl`: tidings' URL of its stored icon, or none. */
export function withStoredIcon<F extends { id: number; iconUrl?: string }>(feed: F, iconUrl: FeedIconUrl): F {
  const { iconUrl: _publishers, ...rest } = feed;
  const own = iconUrl(feed.id);
  return (own === undefined ? rest : { ...rest, iconUrl: own }) as F;
}

/** The entry with its feed's icon as Microsub shows it (withStoredIcon). */
export function withFeedIcon<E extends { feed: { id: number; iconUrl?: string } }>(
  entry: E,
  iconUrl: FeedIconUrl,
): E {
  return { ...entry, feed: withStoredIcon(entry.feed, iconUrl) };
}
