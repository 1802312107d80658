import type { Channel, StoredFeed } from '../model/index.js';
import type { Store } from '../store/index.js';
import {
  channelsFollowing,
  feedAsSeen,
  follow,
  move,
  unfollow,
  updateFeedSettings,
} from '../subscriptions/index.js';
import type { GReaderDeps } from './deps.js';

// The Google Reader API's subscription edits, in its own words, on the subscriptions module (src/subscriptions),
// which decides follow, unfollow, move and rename for every front end. This file only maps the module's
// answers onto what the API's routes need: a feed, or a FollowError with words for the app.

// The apps change what the user follows only, admin or not: an admin's rights over every feed are the
// web UI's feed settings' (a title set on a feed nobody of theirs follows would rename it for everyone).
const AS_FOLLOWER = { isAdmin: false };

/** Why a follow failed, in words for the app. */
export class FollowError extends Error {}

/**
 * The channel an app's folder names: by name (exactly, else with case aside), created when there is none.
 * Never Microsub's notifications channel, which the apps do not see: by uid it would answer to the
 * folder name "notifications" and hide the feed from them (issue 22).
 */
export async function folderChannel(store: Store, name: string): Promise<Channel> {
  return (await existingFolder(store, name)) ?? (await store.channels.create(name));
}

async function existingFolder(store: Store, name: string): Promise<Channel | undefined> {
  const folders = (await store.channels.list()).filter((ch) => ch.uid !== 'notifications');
  return (
    folders.find((ch) => ch.name === name) ??
    folders.find((ch) => ch.name.toLowerCase() === name.toLowerCase())
  );
}

/**
 * Follows a URL (a page is resolved to its feed), fetched at once when new. A folder the app names is an
 * explicit choice of channel: the feed is followed there even when another channel follows it already.
 * Without a folder, a feed followed already stays where it is. `title` is kept over the feed's own.
 */
export async function followFeed(
  deps: GReaderDeps,
  url: string,
  channelName?: string,
  title?: string,
): Promise<StoredFeed> {
  const existing = channelName ? await existingFolder(deps.store, channelName) : undefined;
  const created = channelName && !existing ? await deps.store.channels.create(channelName) : undefined;
  const channel = (existing ?? created)?.uid;
  const result = await follow(deps, { url, ...(channel ? { channel, inAnotherChannel: true } : {}) });
  if (result.kind === 'refused') {
    // a folder made for a feed that could not be followed is not left behind empty
    if (created) await deps.store.channels.delete(created.uid);
    throw new FollowError(result.message);
  }
  if (title) await renameFeed(deps, result.feed.id, title);
  return (await feedAsSeen(deps.store, result.feed.id, AS_FOLLOWER)) ?? result.feed;
}

/** Stops following a feed in every channel (it is kept, unpolled, with its saved entries). */
export async function unfollowFeed(deps: GReaderDeps, feedId: number): Promise<void> {
  await unfollow(deps, { feedId });
}

/** Gives a feed the title the user chose, on their own subscription; polls keep it. */
export async function renameFeed(deps: GReaderDeps, feedId: number, title: string): Promise<void> {
  await updateFeedSettings(deps, feedId, { title }, AS_FOLLOWER);
}

/**
 * Moves a feed between folders (channels, by name, or a channel itself as `to`): from one to another,
 * into one more (no `fromChannel`), or out of one (no `to`; a feed's last channel is kept, since a feed
 * in no channel is not followed).
 */
export async function setFeedFolder(
  deps: GReaderDeps,
  feedId: number,
  fromChannel?: string,
  to?: string | Channel,
): Promise<void> {
  const following = await channelsFollowing(deps.store, feedId);
  const from = following.find((ch) => ch.name === fromChannel && ch.uid !== 'notifications');
  if (to !== undefined) {
    const target = typeof to === 'string' ? await folderChannel(deps.store, to) : to;
    if (from) {
      await move(deps, { feedId, from: from.uid, to: target.uid });
      return;
    }
    const feed = await deps.store.feeds.get(feedId);
    if (feed) await follow(deps, { url: feed.url, channel: target.uid, inAnotherChannel: true });
    return;
  }
  if (from && following.length > 1) await unfollow(deps, { feedId, channel: from.uid });
}
