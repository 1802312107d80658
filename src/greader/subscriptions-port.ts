import type { StoredFeed } from '../model/stored.js';
import type { ServerDeps } from '../server/deps.js';
import { channelsFollowing, follow, move, unfollow, updateFeedSettings } from '../subscriptions/index.js';

// The Google Reader API's subscription edits, in its own words, on the subscriptions module (src/subscriptions),
// which decides follow, unfollow, move and rename for every front end. This file only maps the module's
// answers onto what the API's routes need: a feed, or a FollowError with words for the app.

/** Why a follow failed, in words for the app. */
export class FollowError extends Error {}

/**
 * Follows a URL (a page is resolved to its feed), fetched at once when new. A folder the app names is an
 * explicit choice of channel: the feed is followed there even when another channel follows it already.
 * Without a folder, a feed followed already stays where it is. `title` is kept over the feed's own.
 */
export async function followFeed(
  deps: ServerDeps,
  url: string,
  channelName?: string,
  title?: string,
): Promise<StoredFeed> {
  const result = await follow(deps, {
    url,
    ...(channelName ? { channel: channelName, inAnotherChannel: true } : {}),
  });
  if (result.kind === 'refused') throw new FollowError(result.message);
  if (title) await renameFeed(deps, result.feed.id, title);
  return (await deps.store.getFeed(result.feed.id)) ?? result.feed;
}

/** Stops following a feed in every channel (it is kept, unpolled, with its saved entries). */
export async function unfollowFeed(deps: ServerDeps, feedId: number): Promise<void> {
  await unfollow(deps, { feedId });
}

/** Gives a feed the title a person chose; polls keep it. */
export async function renameFeed(deps: ServerDeps, feedId: number, title: string): Promise<void> {
  await updateFeedSettings(deps, feedId, { title });
}

/**
 * Moves a feed between folders (channels, by name): from one to another, into one more (no `fromChannel`),
 * or out of one (no `toChannel`; a feed's last channel is kept, since a feed in no channel is not followed).
 */
export async function setFeedFolder(
  deps: ServerDeps,
  feedId: number,
  fromChannel?: string,
  toChannel?: string,
): Promise<void> {
  const following = await channelsFollowing(deps.store, feedId);
  const from = following.find((ch) => ch.name === fromChannel);
  if (toChannel !== undefined) {
    if (from) {
      await move(deps, { feedId, from: from.uid, to: toChannel });
      return;
    }
    const feed = await deps.store.getFeed(feedId);
    if (feed) await follow(deps, { url: feed.url, channel: toChannel, inAnotherChannel: true });
    return;
  }
  if (from && following.length > 1) await unfollow(deps, { feedId, channel: from.uid });
}
