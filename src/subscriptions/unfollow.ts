import type { Channel, StoredFeed } from '../model/index.js';
import { UNFOLLOWED_KEEP_DAYS } from '../store/index.js';
import { findChannel } from './channels.js';
import type { SubscriptionDeps } from './deps.js';
import { namesFeed } from './feed-ref.js';

/** Which feed to stop following, and where. */
export interface UnfollowRequest {
  /** A channel uid or name; every channel that follows the feed when left out. */
  channel?: string;
  /** The feed's URL, the URL first followed (a page, a moved URL) or its site's URL. */
  url?: string;
  feedId?: number;
  /** Also drop its entries from the channels' timelines (should it be followed again). */
  removeEntries?: boolean;
}

export type UnfollowResult =
  /** `channels` stopped following it; `unfollowed` when no channel follows it any more (it is no longer polled). */
  | { kind: 'unfollowed'; feed: StoredFeed; channels: Channel[]; unfollowed: boolean }
  | { kind: 'not-found'; message: string };

/**
 * The one way to stop following a feed. A feed that no channel follows any more is not polled; it keeps
 * its entries and heartbeats for UNFOLLOWED_KEEP_DAYS days (following it again resumes it with them),
 * then the poller forgets it.
 */
export async function unfollow(deps: SubscriptionDeps, request: UnfollowRequest): Promise<UnfollowResult> {
  const { store } = deps;
  let channel: Channel | undefined;
  if (request.channel !== undefined) {
    channel = await findChannel(store, request.channel);
    if (!channel) return { kind: 'not-found', message: `unfollow: there is no channel ${request.channel}` };
  }
  const subscriptions = (await store.channels.listSubscriptions(channel?.id)).filter((s) =>
    request.feedId !== undefined ? s.feedId === request.feedId : namesFeed(s.feed, request.url ?? ''),
  );
  const first = subscriptions[0];
  if (!first) {
    const what = request.feedId !== undefined ? `feed ${request.feedId}` : (request.url ?? '').slice(0, 200);
    return {
      kind: 'not-found',
      message: `unfollow: ${channel ? `${channel.name} does not follow` : 'nobody follows'} ${what}`,
    };
  }
  // a URL could name two feeds (a site with two feeds): the first one followed goes
  const feed = first.feed;
  const now = deps.now().toISOString();
  const channels = await store.channels.list();
  const left: Channel[] = [];
  for (const s of subscriptions.filter((s) => s.feedId === feed.id)) {
    if (request.removeEntries === true) await store.reading.removeFeedEntries(s.channelId, feed.id, now);
    await store.channels.unsubscribe(s.channelId, feed.id);
    const gone = channels.find((c) => c.id === s.channelId);
    if (gone) left.push(gone);
  }
  // the feed stays followed while another channel of this user, or another user, follows it
  const unfollowed =
    (await store.channels.follows(feed.id)) === undefined &&
    (await store.channels.otherFollowers(feed.id)) === 0;
  if (unfollowed) await store.feeds.update(feed.id, { unfollowedAt: now });
  return { kind: 'unfollowed', feed: (await store.feeds.get(feed.id)) ?? feed, channels: left, unfollowed };
}

export { UNFOLLOWED_KEEP_DAYS };
