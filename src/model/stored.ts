import type { Diagnostic } from './diagnostic.js';
import type { FeedHealth, HeartbeatStatus } from './heartbeat.js';

/** A followed feed as stored, with its fetch state, schedule and health. */
export interface StoredFeed {
  id: number;
  /** The URL polled now: the subscribed URL, or where a permanent redirect moved it. */
  url: string;
  /** The URL as first subscribed. */
  originalUrl: string;
  title?: string;
  siteUrl?: string;
  description?: string;
  iconUrl?: string;
  etag?: string;
  lastModified?: string;
  hubUrl?: string;
  selfUrl?: string;
  /** Status of the last poll; undefined before the first. */
  status?: HeartbeatStatus;
  httpStatus?: number;
  /** The last problem in words (or the last success's summary). */
  message?: string;
  /** Consecutive failed polls. */
  errorCount: number;
  lastCheckedAt?: string;
  lastSuccessAt?: string;
  /** When an entry was last new in this feed. */
  lastNewEntryAt?: string;
  nextCheckAt: string;
  /** A Retry-After from the server: no request before this time, even when forced. */
  retryAfterAt?: string;
  paused: boolean;
  /** Per-feed overrides. */
  userAgent?: string;
  pollIntervalSeconds?: number;
  /** The feed's own hint (ttl, sy:updatePeriod, Cache-Control max-age), in seconds. */
  hintIntervalSeconds?: number;
  /** Mean seconds between new entries, learnt from the feed; drives the adaptive schedule. */
  cadenceSeconds?: number;
  /** False once the feed was caught with a validator (ETag/Last-Modified) that hid a change. */
  trustsValidators: boolean;
  lastUnconditionalAt?: string;
  /** Hash of the last body fetched: tells a changed document from an unchanged one whatever the validators say. */
  bodyHash?: string;
  /** A permanent redirect seen but not yet trusted: its target and how many polls saw it. */
  pendingMoveUrl?: string;
  pendingMoveCount: number;
  diagnostics: Diagnostic[];
  /** The title a person gave it: polls leave `title` at this. */
  customTitle?: string;
  /** When the last channel that followed it stopped; such a feed is not polled, and is forgotten later. */
  unfollowedAt?: string;
  createdAt: string;
}

/** The health shown to people: the last status, `silent`, `paused`, `unfollowed` (no channel follows it) or `new`. */
export function healthOf(
  feed: Pick<StoredFeed, 'unfollowedAt' | 'paused' | 'status'>,
  silent: boolean,
): FeedHealth {
  if (feed.unfollowedAt !== undefined) return 'unfollowed';
  if (feed.paused) return 'paused';
  if (feed.status === undefined) return 'new';
  if (feed.status === 'ok' && silent) return 'silent';
  return feed.status;
}

/** An entry as stored: what the parser read, normalized, with its identity and content hash. */
export interface StoredEntry {
  id: number;
  feedId: number;
  /** The entry's identity inside its feed (guid/id, else link, else a content hash). */
  guid: string;
  url?: string;
  title?: string;
  summary?: string;
  /** Sanitized HTML. */
  contentHtml?: string;
  contentText?: string;
  published?: string;
  updated?: string;
  /** Position in timelines: published, clamped so that a far-future date does not pin it on top. */
  sortAt: string;
  authors: { name?: string; email?: string; uri?: string; photo?: string }[];
  categories: string[];
  enclosures: { href: string; type?: string; length?: string }[];
  /** Extra microformats/jf2 properties (in-reply-to, like-of, photo, syndication ...). */
  extra: Record<string, unknown>;
  contentHash: string;
  /** The link normalized (scheme, tracking parameters): finds an entry whose guid changes on every fetch. */
  urlKey?: string;
  /** The first author's URL: mute and block rules match it. */
  authorUrl?: string;
  firstSeenAt: string;
  /** When its content last changed (first seen, or an update). */
  changedAt: string;
}

/** A channel of the Microsub sense: an ordered folder of subscriptions. */
export interface Channel {
  id: number;
  /** Stable string id for Microsub (`notifications` for the special channel). */
  uid: string;
  name: string;
  position: number;
}

export interface Subscription {
  id: number;
  channelId: number;
  feedId: number;
  createdAt: string;
}
