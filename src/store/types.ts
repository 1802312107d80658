import type { Channel, Heartbeat, HeartbeatStatus, StoredEntry, StoredFeed } from '../model/index.js';

/** The two databases the store runs on. */
export type Dialect = 'sqlite' | 'postgres';

// The types the store's areas share and hand out: what callers outside src/store see (through index.ts).

/** The channels a write changed: their ids, or 'all' when it may have changed any. */
export type ChangedChannels = readonly number[] | 'all';

/** The fields of a feed that polling and people change. `null` clears a field. */
export type FeedPatch = {
  [K in Exclude<keyof StoredFeed, 'id' | 'createdAt'>]?: StoredFeed[K] | null;
};

export interface ClaimOptions {
  now: string;
  limit: number;
  workerId: string;
  leaseMs: number;
  /** Claim feeds whatever their next-check time (a manual refresh); Retry-After, gone and paused still hold. */
  force?: boolean;
  /** Only these feeds. */
  feedIds?: readonly number[];
  /** Only feeds not checked since this time: one polling run takes each feed once, even when forced. */
  notCheckedSince?: string;
  /** The polling round claiming (PollRound's key): feeds it claimed before are not claimed again. */
  round?: string;
}

/** Rounds of due feeds (poll --once, serve, worker) and of every feed (poll --once --force). */
export type PollRoundKind = 'due' | 'force';

/** A polling round: the runs of one kind that overlap, each feed claimed once between them. */
export interface PollRound {
  /** What claims record (feeds.claim_round), e.g. 'due:12'. */
  key: string;
  /** When the round's first run started: feeds checked since are not claimed in it. */
  startedAt: string;
}

/**
 * An entry as the poller hands it to the store. The full-text index holds its title, summary, plain-text
 * content and Media RSS description (entry-rows.ts's searchTextOf; PostgreSQL's migration 0016 alike).
 */
export type NewEntry = Omit<StoredEntry, 'id' | 'feedId' | 'firstSeenAt' | 'changedAt'>;

export interface PollOutcome {
  feedId: number;
  workerId: string;
  now: string;
  feedPatch: FeedPatch;
  heartbeat: Omit<Heartbeat, 'id' | 'feedId'>;
  newEntries: NewEntry[];
  changedEntries: (NewEntry & { id: number })[];
  /**
   * What the poll means for the feed-health alerts: given, the poll's transaction also steps the feed's
   * alert state and queues the alerts it causes (store/notify/feed-alerts.ts).
   */
  health?: PollHealth | undefined;
}
/** What a claim counts (polling.countClaimable): a claim's options without its limit and lease. */
/** What decides whether a feed may be claimed: everything of ClaimOptions but the limit and the lease. */
export type ClaimFilter = Pick<ClaimOptions, 'now' | 'force' | 'feedIds' | 'notCheckedSince' | 'round'>;
/** A channel with its unread count (entries of its feeds neither read nor removed nor filtered). */
export interface ChannelCount {
  channelId: number;
  unread: number;
}

/** A channel with its unread count and the number of feeds it follows. */
export interface ChannelSummary extends Channel {
  unread: number;
  followed: number;
}

/** A page of a view across channels ("All unread"): cursors as in TimelineQuery. */
export interface UnreadQuery {
  limit: number;
  before?: string | undefined;
  after?: string | undefined;
}

/** A feed's icon as stored; empty bytes and type record that none was found at `fetchedAt`. */
export interface FeedIcon {
  contentType: string;
  bytes: Uint8Array;
  fetchedAt: string;
}

/** One icon lookup's result, as icons.save takes it. */
export interface FeedIconRecord {
  feedId: number;
  icon: { contentType: string; bytes: Uint8Array } | undefined;
  now: string;
}

/** An entry as a timeline shows it: with its read state in the channel and the feed it came from. */
export interface TimelineEntry extends StoredEntry {
  isRead: boolean;
  /** Saved (starred): one state per entry, whatever the channel (issue 15). */
  isSaved?: boolean;
  feed: Pick<StoredFeed, 'id' | 'url' | 'title' | 'siteUrl' | 'iconUrl'>;
}

/**
 * One page of a channel's timeline, newest first, by (sortAt, id). Cursors are opaque strings:
 * `after` asks for older entries than the cursor, `before` for newer ones (the `limit` entries just
 * above it, still returned newest first). Keyset paging, so pages never overlap; entries that arrive
 * later sort above everything already there (see poll/entries.ts), so asking `before` from the top
 * cursor finds them all. A cursor the store did not write, both cursors at once, or a limit below 1:
 * StoreError 'invalid' (answer 400). Optional fields may be given as `undefined` (unparsed parameters).
 */
export interface TimelineQuery {
  channelId: number;
  /** Only this feed's entries (Microsub `source`). */
  feedId?: number | undefined;
  before?: string | undefined;
  after?: string | undefined;
  /** Entries per page, at least 1; more than 500 is read as 500. */
  limit: number;
  /** Only unread entries (Microsub `is_read=false`). */
  unreadOnly?: boolean | undefined;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  /**
   * Cursor for newer entries; present whenever the page has entries. An empty page asked `before` a
   * cursor hands that cursor back, so a client polling for new entries can keep asking with it.
   */
  before?: string;
  /** Cursor for older entries; present exactly when older entries remain. */
  after?: string;
}

/**
 * An entry of a timeline page by reference: its state in the channel, its feed, and when it last changed,
 * which tells a front end whether a copy it made of the entry earlier still holds.
 */
export interface TimelineRef {
  id: number;
  changedAt: string;
  isRead: boolean;
  isSaved: boolean;
  feed: TimelineEntry['feed'];
}

/** A page of a timeline by reference: the same page, in the same order and with the same cursors, as TimelinePage. */
export interface TimelineRefPage {
  refs: TimelineRef[];
  before?: string;
  after?: string;
}

/** A mute or block rule: an author or source URL, in one channel or everywhere (`channelId` undefined). */
export interface Filter {
  id: number;
  channelId?: number;
  kind: 'mute' | 'block';
  url: string;
  createdAt: string;
}

/** A mute or block rule as callers name it: `channelId` undefined for a global rule. */
export interface FilterRule {
  channelId?: number | undefined;
  kind: 'mute' | 'block';
  url: string;
}

export interface SearchQuery {
  /**
   * Words as a person types them; phrases in double quotes. Every word and phrase must appear (case
   * aside); nothing is an operator (AND, OR, NEAR, *, - are words), so no input is a syntax error.
   * Diacritics are ignored too ("cafe" finds "café"), in both databases.
   */
  query: string;
  /** One channel, or all channels when undefined (an entry is read there when read in any channel). */
  channelId?: number | undefined;
  limit: number;
  /** Cursor for the next page of results (older matches). */
  after?: string | undefined;
  /**
   * A byte budget for the page (an API's): the page ends before the entry whose stored size would pass it
   * (at least one entry), with a cursor on to the rest.
   */
  maxBytes?: number | undefined;
}
/** Which entries a sync stream holds: those some channel shows, plus saved ones, narrowed by these. */
export interface SyncFilter {
  /** Only this feed's entries. */
  feedId?: number | undefined;
  /** Only entries of feeds this channel follows (and shows). */
  channelId?: number | undefined;
  /** Only entries the apps see as unread, or only those they see as read. */
  readState?: 'unread' | 'read' | undefined;
  /** Only saved entries (their feed followed or not). */
  savedOnly?: boolean | undefined;
  /** Only entries not saved (Google Reader `xt=starred`). */
  unsavedOnly?: boolean | undefined;
  /** Only entries first seen at or after this time (Google Reader `ot`: the crawl time). */
  seenFrom?: string | undefined;
  /** Only entries first seen at or before this time (`nt`, mark-all-as-read `ts`, Fever `before`). */
  seenUntil?: string | undefined;
  /** Only entries with an id above this one (Fever `since_id`). */
  idAbove?: number | undefined;
  /** Only entries with an id below this one (Fever `max_id`, a continuation). */
  idBelow?: number | undefined;
  /** Only these entries. */
  ids?: readonly number[] | undefined;
}

/** A page of a sync stream, by entry id (ids grow with the crawl time). */
export interface SyncQuery extends SyncFilter {
  oldestFirst: boolean;
  /** At least 1. */
  limit: number;
}

/** An entry's key in a sync stream. */
export interface SyncKey {
  id: number;
  firstSeenAt: string;
}

/** An entry as the apps see it: read by the apps' rule, saved, with its feed. */
export interface SyncEntry extends StoredEntry {
  isRead: boolean;
  isSaved: boolean;
  feed: Pick<StoredFeed, 'id' | 'url' | 'title' | 'siteUrl' | 'iconUrl'>;
}

/** A feed's count of entries the apps see as unread, and when the newest of them was first seen. */
export interface SyncFeedCount {
  feedId: number;
  unread: number;
  newestSeenAt: string;
}
/** A bearer token for the Microsub endpoint, stored by the hash of its secret only. */
export interface StoredToken {
  id: number;
  /** The user the token acts as. */
  userId: number;
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  /** Space-separated scopes, e.g. "read follow mute block channels". */
  scope: string;
  /** Who it was issued to or for (a client id or a note). */
  label?: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}
/** A Google Reader API session as stored: the SHA-256 of its token only. */
export interface StoredApiToken {
  id: number;
  /** The user the session acts as. */
  userId: number;
  createdAt: string;
  lastUsedAt?: string;
}
/** Microsub's special channel: created by the first migration, always first, never deleted. */
export const NOTIFICATIONS_UID = 'notifications';

/** Which subscriptions a query lists: those of one channel, or of some feeds (all when absent). */
export interface SubscriptionFilter {
  channelId?: number | undefined;
  feedIds?: readonly number[] | undefined;
}

/** A subscription as the reader's sidebar and views need it: which channel follows which feed, and its name. */
export interface SubscriptionRef {
  channelId: number;
  feedId: number;
  /** The feed has an icon to show (/icons/ID). */
  hasIcon: boolean;
  title?: string;
  url: string;
  /** The feed's unread entries in the channel (the kept count). */
  unread: number;
}
/** How long a feed that no channel follows keeps its entries and heartbeats (starred entries will need them). */
export const UNFOLLOWED_KEEP_DAYS = 30;

/** What one sweep did. */
export interface UnfollowedSweep {
  /** Feeds found without a subscription (a channel deleted, say) and marked unfollowed now. */
  marked: number;
  /** Feeds unfollowed more than `keepDays` ago, deleted with their entries and heartbeats. */
  forgotten: number[];
}
export interface RetentionPolicy {
  /** Entries that sort before this time may go. */
  olderThan: string;
  /** Each feed keeps at least its newest this many entries, read or not. */
  keepPerFeed: number;
  /** Entries removed per transaction: small, so that readers and polls never wait long. */
  batchSize: number;
  /** Stop after this many entries (a run of the poll loop does a little at a time). */
  maxEntries?: number | undefined;
  now: string;
}
/** A (channel, feed) pair whose kept unread count differs from the recount. */
export interface CountDrift {
  channelId: number;
  feedId: number;
  kept: number;
  actual: number;
}

/** What the check found (and, with `repair`, fixed). */
export interface ReadingStateReport {
  /** Entries of followed feeds without their channel row. */
  missingRows: number;
  /** Rows of a channel that no longer follows the feed. */
  strayRows: number;
  /** Rows whose read, removed or hidden state (or sort key) differs from the records. */
  wrongRows: number;
  countDrift: CountDrift[];
  repaired: boolean;
}

// The health list (/feeds) counts, filters and sorts every feed on each request, so it reads these
// columns only: whole rows (their diagnostics JSON above all) took 20 ms at 2,000 feeds (issue 14).
export const FEED_SUMMARY_FIELDS = [
  'url',
  'title',
  'siteUrl',
  'message',
  'status',
  'paused',
  'unfollowedAt',
  'lastNewEntryAt',
  'cadenceSeconds',
  'errorCount',
  'lastSuccessAt',
  'nextCheckAt',
] as const;

/** What the health list needs of a feed: what its health is made of, what it is sorted and searched by, what a row shows. */
export type FeedSummary = Pick<StoredFeed, 'id' | (typeof FEED_SUMMARY_FIELDS)[number]>;

/** The feed-health event types. */
export type FeedEventType = 'feed.failing' | 'feed.recovered' | 'feed.silent' | 'feed.gone' | 'feed.moved';

/** Where a parse or encoding error is, as `tidings parse` locates it (1-based line and column). */
export interface EventDiagnostic {
  code: string;
  line?: number;
  column?: number;
  /** The document's line there (a cut of 200 characters around the column when the line is longer). */
  excerpt?: string;
  /** The column within `excerpt`, given only when the excerpt is a cut and so differs from `column`. */
  excerptColumn?: number;
}

/** A feed-health event: the JSON a webhook receives (issue 25). */
export interface FeedEvent {
  type: FeedEventType;
  /** The poll's time. */
  at: string;
  feed: { id: number; url: string; title: string | null; siteUrl: string | null };
  /** The feed's status word after the poll (the heartbeat's: parse_error, gone, ...). */
  status: HeartbeatStatus;
  /** The first failure of this run (the poll's time when the run has none); feed.silent: the last new entry. */
  since: string;
  /** Failed polls in a row (0 when the feed is fine). */
  failures: number;
  message: string;
  diagnostic?: EventDiagnostic;
  /** feed.moved: the feed's new URL (feed.url is the old one). */
  newUrl?: string;
  /** The feed's health page under TIDINGS_BASE_URL, when it is set. */
  link?: string;
}

/** What a poll tells the feed-health alerts; see feed-alerts.ts. */
export interface PollHealth {
  /** The feed is broken after this poll: a fetch, parse or encoding error (a 304 of a broken document too). */
  failed: boolean;
  /** The server said 410 Gone. */
  gone: boolean;
  /** A permanent redirect moved the feed to this URL in this poll. */
  movedTo?: string | undefined;
  /**
   * The feed works but has gone quiet by the health page's rule (poll's isSilent): since when, with the
   * alert's message; undefined while it posts as usual.
   */
  silent?: { since: string; message: string } | undefined;
  /** Failed polls in a row that make a feed.failing (TIDINGS_ALERT_AFTER). */
  alertAfter: number;
  /** The event's fields the poll knows. */
  report: Pick<FeedEvent, 'feed' | 'status' | 'message' | 'diagnostic' | 'link'>;
}
