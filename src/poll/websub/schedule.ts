import type { StoredFeed } from '../../model/index.js';
import type { FeedPatch, PushSubscription } from '../../store/index.js';
import type { PollDeps } from '../deps.js';

const DAY_MS = 24 * 3600 * 1000;
/** While push works, a feed is polled at its interval times this, at most once a day. */
const RELAX_FACTOR = 12;

/** True while the feed's subscription is active, unexpired and not caught missing entries. */
export function isWorking(sub: PushSubscription, now: Date): boolean {
  return (
    sub.state === 'active' && sub.unreliableAt === undefined && (sub.expiresAt ?? '') > now.toISOString()
  );
}

/**
 * While push works a poll that went well is next due later: the interval stretched, at most a day, and
 * never past the end of the lease (a lease that runs out unrenewed leaves polling to do the work).
 */
export function relaxSchedule(
  deps: PollDeps,
  feed: StoredFeed,
  sub: PushSubscription,
  patch: FeedPatch,
  now: Date,
): void {
  if (patch.errorCount !== 0 || !patch.nextCheckAt) return;
  const base = (feed.pollIntervalSeconds ?? deps.config.pollIntervalSeconds) * 1000;
  let relaxed = new Date(now.getTime() + Math.max(base, Math.min(base * RELAX_FACTOR, DAY_MS))).toISOString();
  if (sub.expiresAt !== undefined && sub.expiresAt < relaxed) relaxed = sub.expiresAt;
  if (relaxed > patch.nextCheckAt) patch.nextCheckAt = relaxed;
}
