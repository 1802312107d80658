import type { OpmlDocument } from '../opml/read.js';
import { type OpmlChannel, writeOpml } from '../opml/write.js';
import { channelNamed } from '../store/channel-choice.js';
import type { Store } from '../store/store.js';

/** What subscribing an OPML document's feeds did. */
export interface OpmlSubscribed {
  total: number;
  /** Feeds that were not stored before. */
  added: number;
  newFeedIds: number[];
}

/**
 * Follows every feed of an OPML document: its folder becomes the channel (created when new), feeds
 * already stored are reused, a new feed takes the outline's title until its first fetch. Shared by
 * `tidings import` and the web import.
 */
export async function subscribeOpml(
  store: Store,
  doc: OpmlDocument,
  now: string,
  onProgress?: (done: number, total: number) => void,
): Promise<OpmlSubscribed> {
  const newFeedIds: number[] = [];
  for (const [i, item] of doc.feeds.entries()) {
    const channel = await channelNamed(store, item.channel);
    const known = await store.findFeedByUrl(item.xmlUrl);
    const feed = known ?? (await store.addFeed(item.xmlUrl, now));
    if (!known) {
      newFeedIds.push(feed.id);
      if (item.title) await store.updateFeed(feed.id, { title: item.title });
    }
    await store.subscribe(channel.id, feed.id, now);
    onProgress?.(i + 1, doc.feeds.length);
  }
  return { total: doc.feeds.length, added: newFeedIds.length, newFeedIds };
}

/** The subscriptions as OPML 2.0, one outline folder per channel (empty channels left out). */
export async function exportOpmlText(store: Store, now: string): Promise<string> {
  const channels: OpmlChannel[] = [];
  for (const channel of await store.listChannels()) {
    const subscriptions = await store.listSubscriptions(channel.id);
    if (subscriptions.length === 0) continue;
    channels.push({
      name: channel.name,
      feeds: subscriptions.map(({ feed }) => ({
        xmlUrl: feed.url,
        ...(feed.title ? { title: feed.title } : {}),
        ...(feed.siteUrl ? { htmlUrl: feed.siteUrl } : {}),
      })),
    });
  }
  return writeOpml(channels, { title: 'tidings subscriptions', now });
}
