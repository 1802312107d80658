import type { StoredFeed } from '../model/index.js';
import { checkFollowUrl } from '../poll/index.js';
import type { FeedPatch } from '../store/index.js';
import type { SubscriptionDeps } from './deps.js';

/** A person's settings for one feed; `null` goes back to the default. */
export interface FeedSettings {
  /** The feed's title as shown; polls keep it. `null`: the title the feed gives itself again. */
  title?: string | null;
  /** Where the feed moved (a person who knows); fetched from there at once. */
  url?: string;
  /** Seconds between polls; `null`: the configured interval. */
  pollIntervalSeconds?: number | null;
  /** The User-Agent sent for this feed (some servers refuse unknown ones); `null`: tidings' own. */
  userAgent?: string | null;
  paused?: boolean;
}

/** Poll intervals people may set: one minute to a week. */
export const MIN_POLL_INTERVAL_SECONDS = 60;
export const MAX_POLL_INTERVAL_SECONDS = 7 * 24 * 3600;

export type SettingsResult =
  | { kind: 'updated'; feed: StoredFeed }
  | {
      kind: 'refused';
      reason:
        | 'bad-url'
        | 'private-address'
        | 'taken'
        | 'bad-interval'
        | 'bad-user-agent'
        | 'shared'
        | 'not-followed';
      message: string;
    }
  | { kind: 'not-found'; message: string };

/** Who changes the settings: an admin may change any feed's, others those of feeds they follow. */
export interface SettingsActor {
  isAdmin: boolean;
}

/**
 * A feed as the store's user sees it: with their own title and pause where they follow it, else (an
 * admin looking at a feed nobody or somebody else follows) as stored; undefined when there is no feed or
 * the user may not see it (`actor` not an admin and not a follower).
 */
export async function feedAsSeen(
  store: SubscriptionDeps['store'],
  feedId: number,
  actor: SettingsActor,
): Promise<StoredFeed | undefined> {
  const [feed, own] = await Promise.all([store.feeds.get(feedId), store.channels.follows(feedId)]);
  if (!feed || (!own && !actor.isAdmin)) return undefined;
  if (!own) return feed;
  const seen: StoredFeed = { ...feed, paused: own.paused };
  if (own.title !== undefined) {
    seen.title = own.title;
    seen.customTitle = own.title;
  } else delete seen.customTitle;
  return seen;
}

/**
 * Changes a feed's settings; returns the feed as its user sees it afterwards. The title and the pause are
 * the follower's own (each follower names and pauses the feed for themselves; it is polled while anyone
 * has it unpaused). The URL, interval and User-Agent change how the one shared fetch is made: a user may
 * change them while nobody else follows the feed, an admin always. A feed the user does not follow is
 * not found, unless they are an admin, who may change its fetch but has no title or pause of it.
 */
export async function updateFeedSettings(
  deps: SubscriptionDeps,
  feedId: number,
  settings: FeedSettings,
  actor: SettingsActor = { isAdmin: true },
): Promise<SettingsResult> {
  const { store } = deps;
  const feed = await feedAsSeen(store, feedId, actor);
  if (!feed) return { kind: 'not-found', message: `feed: there is no feed ${feedId}` };
  // an admin who does not follow a feed that others follow has no title or pause of it: those are its
  // followers' own (a feed nobody follows has its own, which an admin may set)
  const ownSettings = settings.title !== undefined || settings.paused !== undefined;
  const follower = ownSettings && (await store.channels.follows(feed.id)) !== undefined;
  if (ownSettings && !follower && (await store.channels.otherFollowers(feed.id)) > 0)
    return {
      kind: 'refused',
      reason: 'not-followed',
      message: `feed: you do not follow feed ${feed.id}; its title and pause are each of its followers' own`,
    };
  const fetching =
    (settings.url !== undefined && settings.url.trim() !== feed.url) ||
    settings.pollIntervalSeconds !== undefined ||
    settings.userAgent !== undefined;
  if (fetching && !actor.isAdmin && (await store.channels.otherFollowers(feed.id)) > 0)
    return {
      kind: 'refused',
      reason: 'shared',
      message: `feed: others follow feed ${feed.id} too; only an admin may change its URL, interval or User-Agent`,
    };
  const patch: FeedPatch = {};
  if (settings.url !== undefined && settings.url.trim() !== feed.url) {
    const checked = checkFollowUrl(deps.poll.config, settings.url);
    if (!checked.ok) return { kind: 'refused', reason: checked.reason, message: `feed: ${checked.message}` };
    const taken = await store.feeds.findByUrl(checked.url);
    if (taken && taken.id !== feed.id)
      return {
        kind: 'refused',
        reason: 'taken',
        message: `feed: ${checked.url} is feed ${taken.id} already`,
      };
    // a new address: its validators and pending move mean nothing there, and it is due at once
    Object.assign(patch, {
      url: checked.url,
      etag: null,
      lastModified: null,
      pendingMoveUrl: null,
      pendingMoveCount: 0,
      nextCheckAt: deps.now().toISOString(),
    });
  }
  const interval = settings.pollIntervalSeconds;
  if (interval !== undefined && interval !== null) {
    if (!(interval >= MIN_POLL_INTERVAL_SECONDS && interval <= MAX_POLL_INTERVAL_SECONDS))
      return {
        kind: 'refused',
        reason: 'bad-interval',
        message: 'feed: the interval must be between 1 minute and 7 days',
      };
  }
  if (interval !== undefined) patch.pollIntervalSeconds = interval;
  // a shorter interval counts from the last check: a feed set to every minute is not left an hour away
  if (interval && patch.nextCheckAt === undefined && feed.lastCheckedAt !== undefined) {
    const sooner = new Date(Math.max(Date.parse(feed.lastCheckedAt) + interval * 1000, deps.now().getTime()));
    if (sooner.toISOString() < feed.nextCheckAt) patch.nextCheckAt = sooner.toISOString();
  }
  if (settings.userAgent !== undefined) {
    const userAgent = settings.userAgent?.trim() || null;
    // a header value: a line break or other control character would fail every poll of the feed
    if (userAgent !== null && /[\u0000-\u001f\u007f]/.test(userAgent))
      return {
        kind: 'refused',
        reason: 'bad-user-agent',
        message: 'feed: the User-Agent must be one line of printable characters',
      };
    patch.userAgent = userAgent;
  }
  const title = settings.title === undefined ? undefined : settings.title?.trim() || null;
  if (follower) await store.channels.setFollowerSettings(feed.id, { title, paused: settings.paused });
  else {
    // an admin's change of a feed nobody follows: the feed's own title and pause
    if (title !== undefined) Object.assign(patch, titlePatch(title));
    if (settings.paused !== undefined) patch.paused = settings.paused;
  }
  if (Object.keys(patch).length > 0) await store.feeds.update(feed.id, patch);
  return { kind: 'updated', feed: (await feedAsSeen(store, feed.id, actor)) ?? feed };
}

function titlePatch(title: string | null): FeedPatch {
  // the feed's own title comes back with its next poll
  return title ? { title, customTitle: title } : { customTitle: null };
}
