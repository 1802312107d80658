import type { FeedHealth, HeartbeatStatus, StoredFeed } from '../model/index.js';
import { healthOf } from '../model/index.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The longest a feed waits between polls: errors back off to this, and stretching stops at it. */
export const MAX_INTERVAL_SECONDS = DAY;

/** How far cadence and hints may stretch the configured interval by default (TIDINGS_ADAPTIVE_MAX). */
export const DEFAULT_ADAPTIVE_MAX = 4;

/**
 * Why a feed's next check is when it is: the configured interval, the feed's own hint (ttl,
 * sy:updatePeriod, max-age), its learnt cadence, error backoff, the server's Retry-After; paused and gone
 * feeds are not checked.
 */
export type ScheduleReason =
  | 'interval'
  | 'hint'
  | 'cadence'
  | 'backoff'
  | 'retry-after'
  | 'paused'
  | 'gone'
  | 'unfollowed';

/** What the schedule of one feed depends on. */
export interface ScheduleInput {
  now: Date;
  status: HeartbeatStatus;
  /** The regular interval: TIDINGS_POLL_INTERVAL or the feed's own override. */
  baseIntervalSeconds: number;
  /** How many times the regular interval cadence and hints may stretch it (1: never); default 4. */
  adaptiveMax?: number | undefined;
  /** Consecutive fetch failures including this one (0 after a fetch that worked). */
  errorCount: number;
  /** The feed's hint: ttl, sy:updatePeriod/Frequency or Cache-Control max-age, in seconds. */
  hintSeconds?: number | undefined;
  /** Mean seconds between new entries, learnt from the feed. */
  cadenceSeconds?: number | undefined;
  /** Retry-After from the server, in seconds from now. */
  retryAfterSeconds?: number | undefined;
}

/** A feed's next check: when (undefined for a gone feed), how long from now, and why. */
export interface NextCheck {
  at: Date | undefined;
  intervalSeconds: number;
  reason: ScheduleReason;
}

/**
 * When to poll a feed next, and why. Healthy feeds wait the configured interval, which is a promise:
 * feeds that publish rarely (a quarter of their cadence) or ask for fewer checks (ttl, sy:updatePeriod,
 * max-age) stretch it, but to at most `adaptiveMax` times the interval (and a day). Failures back off
 * exponentially to a day; a Retry-After is honoured as given. Gone feeds are not scheduled.
 */
export function planNextCheck(input: ScheduleInput): NextCheck {
  if (input.status === 'gone') return { at: undefined, intervalSeconds: 0, reason: 'gone' };
  const plan = plannedInterval(input);
  const retry = input.retryAfterSeconds ?? 0;
  const chosen =
    retry > plan.intervalSeconds ? { intervalSeconds: retry, reason: 'retry-after' as const } : plan;
  return { ...chosen, at: new Date(input.now.getTime() + chosen.intervalSeconds * 1000) };
}

/** When to poll a feed next; undefined for a gone feed. */
export function nextCheckAt(input: ScheduleInput): Date | undefined {
  return planNextCheck(input).at;
}

/** The interval chosen by nextCheckAt before any Retry-After, in seconds. */
export function nextIntervalSeconds(input: ScheduleInput): number {
  return plannedInterval(input).intervalSeconds;
}

function plannedInterval(input: ScheduleInput): { intervalSeconds: number; reason: ScheduleReason } {
  const base = Math.max(input.baseIntervalSeconds, 1);
  if (input.status === 'fetch_error') {
    // 1x, 2x, 4x ... the regular interval, never beyond a day; polling never stops for good
    const exponent = Math.min(Math.max(input.errorCount - 1, 0), 16);
    const seconds = Math.min(base * 2 ** exponent, Math.max(MAX_INTERVAL_SECONDS, base));
    return { intervalSeconds: Math.round(seconds), reason: 'backoff' };
  }
  // Issue 12: with TIDINGS_POLL_INTERVAL=5s a weekly feed was polled once a day; stretching is bounded
  const factor = Math.max(input.adaptiveMax ?? DEFAULT_ADAPTIVE_MAX, 1);
  const bound = Math.max(base, Math.min(base * factor, MAX_INTERVAL_SECONDS));
  const cadence = (input.cadenceSeconds ?? 0) > 0 ? Math.min((input.cadenceSeconds as number) / 4, bound) : 0;
  const hint = (input.hintSeconds ?? 0) > 0 ? Math.min(input.hintSeconds as number, bound) : 0;
  if (hint > base && hint >= cadence) return { intervalSeconds: Math.round(hint), reason: 'hint' };
  if (cadence > base) return { intervalSeconds: Math.round(cadence), reason: 'cadence' };
  return { intervalSeconds: Math.round(base), reason: 'interval' };
}

/**
 * Updates the learnt cadence (mean seconds between new entries) with the gaps between publication
 * times seen in one document, as an exponential moving average so that a feed's habits can change.
 */
export function learnCadence(
  previous: number | undefined,
  publishedTimes: readonly number[],
): number | undefined {
  const times = [...publishedTimes].filter(Number.isFinite).sort((a, b) => b - a);
  if (times.length < 2) return previous;
  const span = ((times[0] as number) - (times[times.length - 1] as number)) / 1000;
  const gap = span / (times.length - 1);
  if (!(gap > 0)) return previous;
  return previous === undefined ? Math.round(gap) : Math.round(previous * 0.7 + gap * 0.3);
}

/** Seconds a syndication-module hint asks for: sy:updatePeriod divided by sy:updateFrequency. */
export function syndicationSeconds(
  period: string | undefined,
  frequency: number | undefined,
): number | undefined {
  const periods: Record<string, number> = {
    hourly: HOUR,
    daily: DAY,
    weekly: 7 * DAY,
    monthly: 30 * DAY,
    yearly: 365 * DAY,
  };
  const length = period ? periods[period.trim().toLowerCase()] : undefined;
  if (length === undefined) return undefined;
  return Math.round(length / Math.max(frequency ?? 1, 1));
}

/**
 * True when an ok feed has gone quiet much longer than its usual cadence: four cadences, and at
 * least two days (a feed that posts hourly is not silent after a quiet night).
 */
export function isSilent(
  lastNewEntryAt: string | undefined,
  cadenceSeconds: number | undefined,
  now: Date,
): boolean {
  if (lastNewEntryAt === undefined || cadenceSeconds === undefined) return false;
  const quietSeconds = (now.getTime() - Date.parse(lastNewEntryAt)) / 1000;
  return quietSeconds > Math.max(4 * cadenceSeconds, 2 * DAY);
}

/**
 * A feed's health at `now`: its last poll's status, or silent, new, paused, unfollowed. The one rule the
 * health page, `tidings status` and `/metrics` count by, so that their numbers agree.
 */
export function feedHealthAt(
  feed: Pick<StoredFeed, 'unfollowedAt' | 'paused' | 'status' | 'lastNewEntryAt' | 'cadenceSeconds'>,
  now: Date,
): FeedHealth {
  return healthOf(feed, isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now));
}
