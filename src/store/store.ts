import type { Diagnostic } from '../model/diagnostic.js';
import type { Heartbeat, HeartbeatBar } from '../model/heartbeat.js';
import type { Channel, StoredEntry, StoredFeed, Subscription } from '../model/stored.js';
import type { AccountStore } from './accounts.js';
import type { StoredApiToken } from './api-tokens.js';
import type { SubscriptionFilter, SubscriptionRef } from './channels.js';
import type { ReadingStateReport } from './doctor.js';
import type { FeedSummary } from './feed-summaries.js';
import type { ReaderStore } from './reader.js';
import type { RetentionPolicy } from './retention.js';
import type { SyncEntry, SyncFeedCount, SyncFilter, SyncKey, SyncQuery } from './sync-types.js';
import type { UnfollowedSweep } from './unfollowed.js';

/**
 * The storage interface: SQLite (embedded, default) and PostgreSQL implement it with one query
 * layer (Kysely). All timestamps are ISO 8601 UTC strings as `Date.prototype.toISOString` writes them.
 */
/** The channels a write changed: their ids, or 'all' when it may have changed any. */
export type ChangedChannels = readonly number[] | 'all';

export interface Store extends ReaderStore, AccountStore {
  readonly dialect: 'sqlite' | 'postgres';
  /** Applies pending migrations (run on start). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `listener` after each write of this store that may change what channels count as unread or
   * which feeds they follow (read state, removals, follows, moves, mute and block rules, a feed removed,
   * whichever front end asked), with the channels it touched, or 'all' when it may touch any. New entries
   * are the poller's to announce (PollEvents). Returns a function that stops listening.
   */
  onChannelsChanged(listener: (channels: ChangedChannels) => void): () => void;

  // feeds
  /** Adds a feed, or returns the one already stored under this URL (as subscribed or as moved). */
  addFeed(url: string, now: string): Promise<StoredFeed>;
  getFeed(id: number): Promise<StoredFeed | undefined>;
  findFeedByUrl(url: string): Promise<StoredFeed | undefined>;
  listFeeds(): Promise<StoredFeed[]>;
  /** Every feed's summary (the health list's fields only), oldest first. */
  listFeedSummaries(): Promise<FeedSummary[]>;
  /** The earliest next-check time of a feed that is polled (not paused, not gone); undefined without one. */
  nextCheckTime(): Promise<string | undefined>;
  updateFeed(id: number, patch: FeedPatch): Promise<void>;
  /**
   * Removes a feed with its entries, subscriptions and heartbeats. Saved entries are never deleted: a
   * feed with saved entries is kept, paused and followed by no channel, with only its saved entries.
   */
  removeFeed(id: number): Promise<void>;
  /**
   * Claims up to `limit` feeds due at `now` (nextCheckAt <= now, or every feed when `force`), never a
   * paused or gone feed, nor one whose Retry-After lies ahead, nor one under a live lease (the caller's own
   * included, so a worker never polls a feed twice at once). The lease expires after `leaseMs`, so a crashed
   * worker's feeds come back. Soonest due first. PostgreSQL uses FOR UPDATE SKIP LOCKED.
   */
  claimDueFeeds(options: ClaimOptions): Promise<StoredFeed[]>;
  /** Gives a claimed feed back without polling it; another worker's lease stays. */
  releaseFeed(id: number, workerId: string): Promise<void>;
  /** How many feeds a claim with these options could take now (leases of other workers respected). */
  countClaimableFeeds(
    options: Pick<ClaimOptions, 'now' | 'force' | 'feedIds' | 'notCheckedSince' | 'round'>,
  ): Promise<number>;
  /** Moves the expiry of `workerId`'s leases on these feeds to `leaseExpiresAt` (a run still at work); returns the count. */
  renewLeases(ids: readonly number[], workerId: string, leaseExpiresAt: string): Promise<number>;
  /**
   * Gives these feeds back in one statement (a run that stops short); another worker's lease stays. With
   * `unclaimRound` they are no longer claimed in that round either: another run of it may take them.
   */
  releaseFeeds(
    ids: readonly number[],
    workerId: string,
    options?: { unclaimRound?: string },
  ): Promise<number>;
  /**
   * Joins the open polling round of this kind (one that no run of it has finished and that its runs keep
   * renewing), or opens the next one when there is none; a round stays open until `expiresAt` unless renewed.
   */
  joinPollRound(kind: PollRoundKind, now: string, expiresAt: string): Promise<PollRound>;
  /** Keeps a round open until `expiresAt` (a run of it still at work). */
  renewPollRound(key: string, expiresAt: string): Promise<void>;
  /** Closes a round to new runs (one of its runs found nothing more to claim). */
  closePollRound(key: string): Promise<void>;

  // entries
  /** The stored entries of a feed among these guids: guid -> id and content hash (one query). */
  entryHashes(
    feedId: number,
    guids: readonly string[],
  ): Promise<Map<string, { id: number; contentHash: string }>>;
  /**
   * Stores the outcome of one poll in one transaction: new entries inserted, changed entries updated
   * (keeping first-seen and read state), the feed's state patched, its lease released, one heartbeat added.
   * A guid already stored is skipped, not duplicated (another process may have won the race); a feed removed
   * meanwhile makes it a no-op.
   */
  /** The stored entries of a feed among these url keys: url key -> id, guid and content hash (unstable guids). */
  entriesByUrlKey(
    feedId: number,
    urlKeys: readonly string[],
  ): Promise<Map<string, { id: number; guid: string; contentHash: string }>>;
  recordPoll(outcome: PollOutcome): Promise<{ insertedIds: number[]; updatedIds: number[] }>;
  getEntry(id: number): Promise<StoredEntry | undefined>;
  /** A feed's entries, newest first. */
  listFeedEntries(feedId: number, limit: number): Promise<StoredEntry[]>;

  // heartbeats
  /** A feed's heartbeats, newest first. */
  listHeartbeats(feedId: number, limit: number): Promise<Heartbeat[]>;
  /**
   * The last `limit` heartbeats of each of these feeds (one page of the health list) as bars, newest
   * first; feeds without any are absent. Reads about `limit` rows a feed, however long its history.
   */
  listHeartbeatBars(feedIds: readonly number[], limit: number): Promise<Map<number, HeartbeatBar[]>>;

  // channels and subscriptions
  listChannels(): Promise<Channel[]>;
  /** Creates a channel at the end of the order; `uid` defaults to a fresh one. A taken uid: StoreError 'conflict'. */
  createChannel(name: string, uid?: string): Promise<Channel>;
  getChannel(uid: string): Promise<Channel | undefined>;
  /** Renames a channel; an unknown uid: StoreError 'not_found'. */
  renameChannel(uid: string, name: string): Promise<void>;
  /** Deletes a channel with its subscriptions; an unknown uid does nothing; `notifications`: StoreError 'invalid'. */
  deleteChannel(uid: string): Promise<void>;
  /**
   * Puts these channels first, in this order, after `notifications`, which always stays first; the others
   * keep their relative order after them. Unknown uids are ignored.
   */
  orderChannels(uids: readonly string[]): Promise<void>;
  subscribe(channelId: number, feedId: number, now: string): Promise<Subscription>;
  unsubscribe(channelId: number, feedId: number): Promise<void>;
  /** Subscriptions with their feeds, in one channel or all. */
  listSubscriptions(channelId?: number): Promise<(Subscription & { feed: StoredFeed })[]>;
  /**
   * Every subscription (or one channel's, or some feeds') with its feed's title and URL only (the reading
   * pages' sidebar), in the same order.
   */
  listSubscriptionRefs(only?: SubscriptionFilter): Promise<SubscriptionRef[]>;

  // subscriptions
  /**
   * Marks feeds that lost their last subscription without being told (a deleted channel) as unfollowed,
   * clears the mark of feeds followed again, and deletes feeds unfollowed more than `keepDays` ago.
   */
  sweepUnfollowedFeeds(now: string, keepDays: number): Promise<UnfollowedSweep>;

  // saved entries and sync
  /** Saves (stars) or unsaves entries; unknown ids are ignored. Saved is one state per entry. */
  setSaved(entryIds: readonly number[], saved: boolean, now: string): Promise<void>;
  /**
   * Marks the entries a sync filter selects read (or unread) in every channel that follows their feed
   * (the apps' rule: src/reading). An `ids` filter may hold any number of ids.
   */
  setReadEverywhere(filter: SyncFilter, read: boolean, now: string): Promise<void>;
  /** One page of a sync stream's keys, by entry id. */
  syncKeys(query: SyncQuery): Promise<SyncKey[]>;
  /** Every id of a sync stream, ascending. */
  syncIds(filter: SyncFilter): Promise<number[]>;
  /** How many entries a sync stream holds. */
  syncCount(filter: SyncFilter): Promise<number>;
  /** Entries by id as the apps see them (read by the apps' rule, saved, with their feed), in the order asked. */
  syncEntries(ids: readonly number[]): Promise<SyncEntry[]>;
  /** Each entry's stored size in bytes (its text columns), by id, read without loading the text. */
  entrySizes(ids: readonly number[]): Promise<Map<number, number>>;
  /** Every feed's count of entries the apps see as unread (feeds with none are left out). */
  syncUnreadCounts(): Promise<SyncFeedCount[]>;
  /** Stores the SHA-256 of a new Google Reader API token. */
  createApiToken(tokenHash: string, now: string): Promise<void>;
  /** The API token with this hash, if any. */
  findApiToken(tokenHash: string): Promise<StoredApiToken | undefined>;
  touchApiToken(id: number, now: string): Promise<void>;
  /** Deletes every API token. */
  deleteApiTokens(): Promise<void>;

  // reading at scale
  /**
   * Compares the kept per-channel rows and unread counts with a recount from the records (`tidings
   * doctor`); with `repair`, rebuilds them when they differ, in one transaction.
   */
  checkReadingState(options: { repair: boolean }): Promise<ReadingStateReport>;
  /**
   * Removes entries that sort before `olderThan`, are not among their feed's newest `keepPerFeed`, are
   * unread in no channel and not saved, in transactions of `batchSize`; their guids are remembered so that
   * polls do not store them again. Returns how many went.
   */
  applyRetention(policy: RetentionPolicy): Promise<{ removed: number }>;
}

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
 * An entry as the poller hands it to the store; `searchText` (title, summary and content as plain text)
 * feeds the full-text index and is not kept otherwise.
 */
export type NewEntry = Omit<StoredEntry, 'id' | 'feedId' | 'firstSeenAt' | 'changedAt'> & {
  searchText?: string;
};

export interface PollOutcome {
  feedId: number;
  workerId: string;
  now: string;
  feedPatch: FeedPatch;
  heartbeat: Omit<Heartbeat, 'id' | 'feedId'>;
  newEntries: NewEntry[];
  changedEntries: (NewEntry & { id: number })[];
}

export type { Diagnostic };
