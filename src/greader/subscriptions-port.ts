import type { StoredFeed } from '../model/stored.js';
import { discover } from '../poll/discover.js';
import { pollOnce } from '../poll/poller.js';
import { channelNamed } from '../store/channel-choice.js';
import { StoreError } from '../store/store-error.js';
import type { ServerDeps } from '../web/deps.js';

// temporary: replaced by src/subscriptions at merge. The four subscription use cases the Google Reader
// API needs, written against the store directly and kept minimal until the lead points them at the
// subscriptions module (issue 13), which decides follow, unfollow, move and rename for every front end.

/** Why a follow failed, in words for the app. */
export class FollowError extends Error {}

/** Follows a URL (a page is resolved to its feed) in the channel named so (created when new), fetched at once. */
export async function followFeed(
  deps: ServerDeps,
  url: string,
  channelName?: string,
  title?: string,
): Promise<StoredFeed> {
  const { store } = deps;
  const known = await store.findFeedByUrl(url);
  const feedUrl = known ? known.url : await resolveFeedUrl(deps, url);
  const now = deps.now().toISOString();
  const feed = known ?? (await store.addFeed(feedUrl, now));
  const wasFollowed = (await store.listSubscriptions()).some((s) => s.feedId === feed.id);
  const channel = await channelNamed(store, channelName);
  await store.subscribe(channel.id, feed.id, now).catch((err: unknown) => {
    if (!(err instanceof StoreError && err.kind === 'conflict')) throw err;
  });
  // a feed kept only for its saved entries was paused when unfollowed: following it again resumes it
  if (feed.paused && !wasFollowed) await store.updateFeed(feed.id, { paused: false });
  if (feed.lastCheckedAt === undefined) await pollOnce(deps.poll, { feedIds: [feed.id], force: true });
  if (title) await renameFeed(deps, feed.id, title);
  return (await store.getFeed(feed.id)) ?? feed;
}

async function resolveFeedUrl(deps: ServerDeps, url: string): Promise<string> {
  const found = await discover(deps.poll, url);
  if (found.kind === 'error') throw new FollowError(`cannot follow ${url}: ${found.message}`);
  if (found.kind === 'feed') return found.url;
  const first = found.feeds[0];
  if (!first) throw new FollowError(`cannot follow ${url}: it links to no feed`);
  return first.url;
}

/** Stops following a feed in every channel (saved entries are kept: see store.removeFeed). */
export async function unfollowFeed(deps: ServerDeps, feedId: number): Promise<void> {
  await deps.store.removeFeed(feedId);
}

/** Gives a feed the title a person chose (temporary: the next poll writes the feed's own title back). */
export async function renameFeed(deps: ServerDeps, feedId: number, title: string): Promise<void> {
  await deps.store.updateFeed(feedId, { title });
}

/**
 * Moves a feed between channels by name: from one to another, into one more (no `fromChannel`), or out
 * of one (no `toChannel`; the last channel of a feed is kept, since a feed in no channel is not followed).
 */
export async function setFeedFolder(
  deps: ServerDeps,
  feedId: number,
  fromChannel?: string,
  toChannel?: string,
): Promise<void> {
  const { store } = deps;
  const now = deps.now().toISOString();
  const subscriptions = (await store.listSubscriptions()).filter((s) => s.feedId === feedId);
  const channels = await store.listChannels();
  const from = channels.find(
    (ch) => ch.name === fromChannel && subscriptions.some((s) => s.channelId === ch.id),
  );
  if (toChannel !== undefined) {
    const to = await channelNamed(store, toChannel);
    if (from) return store.moveSubscription(feedId, from.id, to.id, now);
    await store.subscribe(to.id, feedId, now).catch((err: unknown) => {
      if (!(err instanceof StoreError && err.kind === 'conflict')) throw err;
    });
    return;
  }
  if (from && subscriptions.length > 1) await store.unsubscribe(from.id, feedId);
}
