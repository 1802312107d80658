import type { HeartbeatStatus } from '../model/heartbeat.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The longest a feed waits between polls: errors back off to this, and hints are capped at it. */
export const MAX_INTERVAL_SECONDS = DAY;

/** What the schedule of one feed depends on. */
export interface ScheduleInput {
  now: Date;
  status: HeartbeatStatus;
  /** The regular interval: TIDINGS_POLL_INTERVAL or the feed's own override. */
  baseIntervalSeconds: number;
  /** Consecutive fetch failures including this one (0 after a fetch that worked). */
  errorCount: number;
  /** The feed's hint: ttl, sy:updatePeriod/Frequency or Cache-Control max-age, in seconds. */
  hintSeconds?: number | undefined;
  /** Mean seconds between new entries, learnt from the feed. */
  cadenceSeconds?: number | undefined;
  /** Retry-After from the server, in seconds from now. */
  retryAfterSeconds?: number | undefined;
}

/**
 * When to poll a feed next. Healthy feeds wait the regular interval, stretched for feeds that publish
 * rarely (a quarter of their cadence, so a new post is still seen within a fraction of its gap) and
 * never shorter than what the feed itself asks (ttl, sy:updatePeriod, max-age); failures back off
 * exponentially to a day. A Retry-After is honoured as given. Gone feeds are not scheduled.
 */
export function nextCheckAt(input: ScheduleInput): Date | undefined {
  if (input.status === 'gone') return undefined;
  const seconds = Math.max(nextIntervalSeconds(input), input.retryAfterSeconds ?? 0);
  return new Date(input.now.getTime() + seconds * 1000);
}

/** The interval chosen by nextCheckAt, in seconds. */
export function nextIntervalSeconds(input: ScheduleInput): number {
  const base = Math.max(input.baseIntervalSeconds, 1);
  if (input.status === 'fetch_error') {
    // 1x, 2x, 4x ... the regular interval, never beyond a day; polling never stops for good
    const exponent = Math.min(Math.max(input.errorCount - 1, 0), 16);
    return Math.min(base * 2 ** exponent, Math.max(MAX_INTERVAL_SECONDS, base));
  }
  let interval = base;
  if (input.cadenceSeconds !== undefined && input.cadenceSeconds > 0) {
    interval = Math.max(interval, Math.min(input.cadenceSeconds / 4, MAX_INTERVAL_SECONDS));
  }
  if (input.hintSeconds !== undefined && input.hintSeconds > 0) {
    interval = Math.max(interval, Math.min(input.hintSeconds, MAX_INTERVAL_SECONDS));
  }
  return Math.round(interval);
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
