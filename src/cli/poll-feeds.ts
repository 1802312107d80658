import type { StoredFeed } from '../model/index.js';
import type { Store } from '../store/index.js';
import { EXIT_USAGE, UserError } from './user-error.js';

/** The ids of `--feed`: whole numbers, as `tidings status` shows them; anything else is a usage error. */
export function parseFeedIds(values: readonly string[]): number[] {
  return values.map((value) => {
    if (!/^\d+$/.test(value.trim()))
      throw new UserError(
        `poll: --feed takes feed ids (numbers, as tidings status shows them), not ${JSON.stringify(value)}`,
        {
          exitCode: EXIT_USAGE,
        },
      );
    return Number(value);
  });
}

/** The feeds of these ids; a missing one is a UserError naming it. */
export async function requireFeeds(store: Store, ids: readonly number[]): Promise<StoredFeed[]> {
  const feeds = await Promise.all(ids.map((id) => store.feeds.get(id)));
  const missing = ids.filter((_, i) => feeds[i] === undefined);
  if (missing.length > 0)
    throw new UserError(`poll: no feed ${missing.join(', ')} (tidings status lists the feeds)`);
  return feeds as StoredFeed[];
}

/**
 * Why a feed named with --feed was not polled by the run that began at `runStartedAt`, in words, from
 * the feed as it was before the run (`before`) and after it (`after`); undefined when it was polled.
 */
export function whyNotPolled(
  before: StoredFeed,
  after: StoredFeed | undefined,
  runStartedAt: string,
  force: boolean,
): string | undefined {
  if (after === undefined) return `feed ${before.id} was removed during the run`;
  if (after.lastCheckedAt !== undefined && after.lastCheckedAt >= runStartedAt) return undefined;
  const id = `feed ${before.id}`;
  // A feed no channel follows is never claimed (work/subs); without this line it read as "being
  // polled by another process".
  if (before.unfollowedAt !== undefined)
    return `${id} is followed by no channel since ${before.unfollowedAt.slice(0, 10)}, so it is not polled`;
  if (before.paused) return `${id} is paused (resume it on its page, /feeds/${before.id})`;
  if (before.status === 'gone') return `${id} is gone (its server answered 410) and is no longer polled`;
  if (before.retryAfterAt !== undefined && before.retryAfterAt > runStartedAt)
    return `${id} asked to wait until ${before.retryAfterAt} (Retry-After); not even --force polls it before`;
  if (!force && before.nextCheckAt > runStartedAt)
    return `${id} is not due (next check at ${before.nextCheckAt}); --force polls it anyway`;
  return `${id} was being polled by another process`;
}
