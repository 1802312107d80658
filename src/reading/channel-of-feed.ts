import type { Channel } from '../model/index.js';
import type { Store, SubscriptionRef } from '../store/index.js';

// Views that mix channels (All unread, Saved, search across channels) show an entry once, and it acts
// in the first channel, by channel order, that follows its feed.

/** The first channel (by position) that follows each feed, among these subscriptions. */
export function firstChannelByFeed(
  channels: readonly Channel[],
  subscriptions: readonly Pick<SubscriptionRef, 'channelId' | 'feedId'>[],
): Map<number, Channel> {
  const byId = new Map(channels.map((ch) => [ch.id, ch]));
  const byFeed = new Map<number, Channel>();
  for (const sub of subscriptions) {
    const channel = byId.get(sub.channelId);
    const known = byFeed.get(sub.feedId);
    if (channel && (!known || channel.position < known.position)) byFeed.set(sub.feedId, channel);
  }
  return byFeed;
}

/** The channel each of these feeds acts in (the first that follows it); feeds no channel follows are left out. */
export async function channelsActingFor(
  store: Store,
  feedIds: readonly number[],
): Promise<Map<number, Channel>> {
  const [channels, subscriptions] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptionRefs({ feedIds }),
  ]);
  return firstChannelByFeed(channels, subscriptions);
}
