import type { StoredFeed } from '../model/index.js';
import type { PollConfig } from './deps.js';
import { type NextCheck, planNextCheck } from './scheduler.js';

/** A feed's next check as its page shows it: the stored time, why, and what the schedule started from. */
export interface NextCheckExplained extends NextCheck {
  /** The configured interval: the feed's own or TIDINGS_POLL_INTERVAL. */
  baseIntervalSeconds: number;
  /** How many times the interval stretching may reach (TIDINGS_ADAPTIVE_MAX). */
  adaptiveMax: number | undefined;
}

/**
 * Why a feed's next check is when it is. The reason is not stored: the last poll stored every input of
 * the schedule (status, errors in a row, the hint it used, the cadence, Retry-After, both from the same
 * `now`), so planning again from them gives the reason that poll had. The time shown is the stored one.
 */
export function explainNextCheck(
  feed: StoredFeed,
  config: Pick<PollConfig, 'pollIntervalSeconds' | 'adaptiveMax'>,
): NextCheckExplained {
  const baseIntervalSeconds = feed.pollIntervalSeconds ?? config.pollIntervalSeconds;
  const common = { baseIntervalSeconds, adaptiveMax: config.adaptiveMax };
  // no channel follows it: not polled at all, whatever its schedule said (forgotten after a while)
  if (feed.unfollowedAt !== undefined)
    return { ...common, at: undefined, intervalSeconds: 0, reason: 'unfollowed' };
  if (feed.paused) return { ...common, at: undefined, intervalSeconds: 0, reason: 'paused' };
  if (feed.status === 'gone') return { ...common, at: undefined, intervalSeconds: 0, reason: 'gone' };
  const at = new Date(feed.nextCheckAt);
  const checkedMs = feed.lastCheckedAt === undefined ? Number.NaN : Date.parse(feed.lastCheckedAt);
  if (feed.status === undefined || !Number.isFinite(checkedMs))
    return { ...common, at, intervalSeconds: baseIntervalSeconds, reason: 'interval' };
  const retryMs = feed.retryAfterAt === undefined ? Number.NaN : Date.parse(feed.retryAfterAt);
  const plan = planNextCheck({
    now: new Date(checkedMs),
    status: feed.status,
    baseIntervalSeconds,
    adaptiveMax: config.adaptiveMax,
    errorCount: feed.errorCount,
    hintSeconds: feed.hintIntervalSeconds,
    cadenceSeconds: feed.cadenceSeconds,
    retryAfterSeconds: retryMs > checkedMs ? (retryMs - checkedMs) / 1000 : undefined,
  });
  return { ...common, ...plan, at };
}
