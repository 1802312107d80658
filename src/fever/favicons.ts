import type { AppFeeds } from '../reading/index.js';
import type { Store } from '../store/index.js';

// Fever's `favicons`: `{ id, data }` with data "image/png;base64,..." (the MIME type, then the base64
// bytes, no "data:" prefix), as the spec's example and the apps read it. tidings keeps one icon per feed
// (found while polling, feed_icons), so a feed's favicon_id is its own id, and 0 when it has none.

/** The ids of the feeds the apps see that have a stored icon: each one's favicon_id. */
export async function faviconIdsOf(store: Store, view: AppFeeds): Promise<Set<number>> {
  const withIcons = new Set(await store.icons.feedIds());
  return new Set(view.feeds.map((feed) => feed.id).filter((id) => withIcons.has(id)));
}

/** `favicons`: the stored icon of each of these feeds, with the feed's id as the favicon's. */
export async function faviconsOf(store: Store, feedIds: Iterable<number>): Promise<object[]> {
  const favicons: object[] = [];
  for (const id of [...feedIds].sort((a, b) => a - b)) {
    const icon = await store.icons.get(id);
    if (!icon || icon.contentType === '' || icon.bytes.length === 0) continue;
    favicons.push({ id, data: `${icon.contentType};base64,${Buffer.from(icon.bytes).toString('base64')}` });
  }
  return favicons;
}
