import { type Diagnostic, type HeartbeatStatus, plural, type StoredFeed } from '../model/index.js';
import type { EventDiagnostic, FeedPatch, PollHealth } from '../store/index.js';
import type { PollConfig } from './deps.js';
import { isSilent } from './scheduler.js';
import { causeOfStatus } from './status.js';

/** Failed polls in a row that make a feed.failing when TIDINGS_ALERT_AFTER is not set. */
export const DEFAULT_ALERT_AFTER = 3;

const FAILED: ReadonlySet<HeartbeatStatus> = new Set(['fetch_error', 'parse_error', 'encoding_error']);

/** What one poll decided, as far as the alerts care. */
export interface PollVerdict {
  status: HeartbeatStatus;
  message: string;
  feedPatch: FeedPatch;
}

/**
 * What a poll means for the feed-health alerts (issue 25), handed to the store with the poll: whether
 * the feed is broken after it, gone, or moved, and the alert's fields. The feed's status after the poll
 * counts, not the heartbeat's: a 304 of a document that does not parse leaves the feed a parse_error (see
 * processFailure), and a feed whose server answers 304 to a broken document every morning is broken.
 */
export function pollHealth(config: PollConfig, feed: StoredFeed, poll: PollVerdict, now: Date): PollHealth {
  const patch = poll.feedPatch;
  const status = patch.status ?? feed.status ?? poll.status;
  const message = patch.message ?? feed.message ?? poll.message;
  const diagnostics = patch.diagnostics ?? feed.diagnostics;
  // a page followed and resolved to its feed by its first poll has not moved: the URL was never a feed's
  const hasWorked = feed.lastSuccessAt !== undefined;
  const movedTo =
    hasWorked && typeof patch.url === 'string' && patch.url !== feed.url ? patch.url : undefined;
  const cause = causeOfStatus(status, diagnostics);
  const title = patch.title === undefined ? feed.title : patch.title;
  const siteUrl = patch.siteUrl === undefined ? feed.siteUrl : patch.siteUrl;
  const failed = FAILED.has(status);
  return {
    failed,
    gone: status === 'gone',
    movedTo,
    silent: failed || status === 'gone' ? undefined : quiet(feed, patch, now),
    alertAfter: config.alertAfter ?? DEFAULT_ALERT_AFTER,
    report: {
      feed: { id: feed.id, url: feed.url, title: title ?? null, siteUrl: siteUrl ?? null },
      status,
      message,
      ...(cause !== undefined ? { diagnostic: eventDiagnostic(cause) } : {}),
      ...(config.baseUrl !== undefined ? { link: `${config.baseUrl}/feeds/${feed.id}` } : {}),
    },
  };
}

/** Where the error is, as `tidings parse` says it: code, 1-based line and column, the line's text. */
function eventDiagnostic(diagnostic: Diagnostic): EventDiagnostic {
  return {
    code: diagnostic.code,
    ...(diagnostic.line !== undefined ? { line: diagnostic.line } : {}),
    ...(diagnostic.column !== undefined ? { column: diagnostic.column } : {}),
    ...(diagnostic.excerpt !== undefined ? { excerpt: diagnostic.excerpt } : {}),
    ...(diagnostic.excerptColumn !== undefined && diagnostic.excerptColumn !== diagnostic.column
      ? { excerptColumn: diagnostic.excerptColumn }
      : {}),
  };
}

/**
 * The feed's quiet spell when it has gone quiet by the health page's rule (isSilent: four cadences and at
 * least two days without a new entry), in words for the alert.
 */
function quiet(
  feed: StoredFeed,
  patch: FeedPatch,
  now: Date,
): { since: string; message: string } | undefined {
  const last = patch.lastNewEntryAt === undefined ? feed.lastNewEntryAt : (patch.lastNewEntryAt ?? undefined);
  const cadence =
    patch.cadenceSeconds === undefined ? feed.cadenceSeconds : (patch.cadenceSeconds ?? undefined);
  if (last === undefined || cadence === undefined || !isSilent(last, cadence, now)) return undefined;
  const quietSeconds = (now.getTime() - Date.parse(last)) / 1000;
  return {
    since: last,
    message: `no new entry for ${duration(quietSeconds)}; it usually posts every ${duration(cadence)}`,
  };
}

/** Seconds in words, roughly: "9 days", "1 hour", "40 minutes". */
function duration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    const n = Math.round(seconds / size);
    if (seconds >= size || unit === 'minute') return `${Math.max(n, 1)} ${unit}${n === 1 ? '' : 's'}`;
  }
  return plural(Math.round(seconds), 'second');
}
