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
  | { kind: 'refused'; reason: 'bad-url' | 'private-address' | 'taken' | 'bad-interval'; message: string }
  | { kind: 'not-found'; message: string };

/** Changes a feed's own settings; returns the feed as stored afterwards. */
export async function updateFeedSettings(
  deps: SubscriptionDeps,
  feedId: number,
  settings: FeedSettings,
): Promise<SettingsResult> {
  const { store } = deps;
  const feed = await store.feeds.get(feedId);
  if (!feed) return { kind: 'not-found', message: `feed: there is no feed ${feedId}` };
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
  if (settings.title !== undefined) Object.assign(patch, titlePatch(settings.title));
  if (settings.userAgent !== undefined) patch.userAgent = settings.userAgent?.trim() || null;
  if (settings.paused !== undefined) patch.paused = settings.paused;
  await store.feeds.update(feed.id, patch);
  return { kind: 'updated', feed: (await store.feeds.get(feed.id)) ?? feed };
}

function titlePatch(title: string | null): FeedPatch {
  const wanted = title?.trim();
  // the feed's own title comes back with its next poll
  return wanted ? { title: wanted, customTitle: wanted } : { customTitle: null };
}
