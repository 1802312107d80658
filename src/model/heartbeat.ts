import type { Diagnostic } from './diagnostic.js';

/** How one poll of a feed can end, every word (metrics name each, a count of 0 included). */
export const HEARTBEAT_STATUSES = [
  'ok',
  'not_modified',
  'fetch_error',
  'parse_error',
  'encoding_error',
  'gone',
] as const;

/** How one poll of a feed ended; `silent` is derived (an ok feed quiet for much longer than usual). */
export type HeartbeatStatus = (typeof HEARTBEAT_STATUSES)[number];

/** Every word of the feed-health page: a poll's status, or what a feed's state says of it. */
export const FEED_HEALTHS = [...HEARTBEAT_STATUSES, 'silent', 'new', 'paused', 'unfollowed'] as const;

export type FeedHealth = (typeof FEED_HEALTHS)[number];

/** One poll of one feed: every refresh leaves exactly one. */
export interface Heartbeat {
  id?: number;
  feedId: number;
  /** When the poll started (ISO 8601 UTC). */
  at: string;
  status: HeartbeatStatus;
  httpStatus?: number;
  newCount: number;
  updatedCount: number;
  bytes: number;
  durationMs: number;
  /** What happened, in words, e.g. "fetch: timed out after 30 s". */
  message?: string;
  diagnostics: Diagnostic[];
}

/** What a strip of heartbeats draws of one poll: when it was, how it ended, how many entries were new. */
export type HeartbeatBar = Pick<Heartbeat, 'at' | 'status' | 'newCount'>;
