import type { Kysely } from 'kysely';
import type { Heartbeat, HeartbeatBar } from '../model/heartbeat.js';
import type { Channel, StoredEntry, StoredFeed, Subscription } from '../model/stored.js';
import type { StoredToken } from './accounts.js';
import { allUnreadCount } from './all-unread-count.js';
import type { StoredApiToken } from './api-tokens.js';
import * as apiTokens from './api-tokens.js';
import type { Backend } from './backend.js';
import * as channels from './channels.js';
import { type ClaimFilter, countClaimableFeeds } from './claim.js';
import type { ReadingStateReport } from './doctor.js';
import * as doctor from './doctor.js';
import * as entries from './entries.js';
import { entrySizes } from './entry-sizes.js';
import * as states from './entry-states.js';
import * as feedIcons from './feed-icons.js';
import { type FeedSummary, listFeedSummaries } from './feed-summaries.js';
import * as feeds from './feeds.js';
import * as filters from './filters.js';
import { listHeartbeatBars } from './heartbeat-bars.js';
import { migrate } from './migrate.js';
import * as pollRounds from './poll-rounds.js';
import type {
  ChannelCount,
  ChannelSummary,
  FeedIcon,
  FeedIconRecord,
  Filter,
  FilterRule,
  SearchQuery,
  TimelineEntry,
  TimelinePage,
  TimelineQuery,
  TimelineRefPage,
  UnreadQuery,
} from './reader.js';
import * as readerViews from './reader-views.js';
import type { RetentionPolicy } from './retention.js';
import * as retention from './retention.js';
import { feedFromRow } from './rows.js';
import * as savedView from './saved-view.js';
import type { Database } from './schema.js';
import * as search from './search.js';
import * as settings from './settings.js';
import { PollWriter } from './sqlite/group-commit.js';
import type {
  ChangedChannels,
  ClaimOptions,
  FeedPatch,
  PollOutcome,
  PollRound,
  PollRoundKind,
  Store,
} from './store.js';
import * as sync from './sync.js';
import type { SyncEntry, SyncFeedCount, SyncFilter, SyncKey, SyncQuery } from './sync-types.js';
import * as timelines from './timeline.js';
import * as tokens from './tokens.js';
import type { UnfollowedSweep } from './unfollowed.js';
import * as unfollowed from './unfollowed.js';
import * as counts from './unread-counts.js';
import { chunk } from './values.js';

/** The Store on a Kysely instance; `backend` supplies what differs between SQLite and PostgreSQL. */
export class KyselyStore implements Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly #db: Kysely<Database>;
  readonly #backend: Backend;
  #closed = false;
  /** Writes polls in group commits. */
  readonly #pollWriter: PollWriter;
  readonly #channelListeners = new Set<(channels: ChangedChannels) => void>();

  constructor(db: Kysely<Database>, backend: Backend) {
    this.#db = db;
    this.#backend = backend;
    this.dialect = backend.dialect;
    this.#pollWriter = new PollWriter(db, () => backend.afterPollsWritten?.(), backend.dialect);
  }

  async migrate(): Promise<void> {
    await migrate(this.#db, this.#backend, new Date());
  }

  /** Closes the connection (pool); calling it again does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pollWriter.drain();
    await this.#backend.close?.();
    await this.#db.destroy();
  }

  onChannelsChanged(listener: (channels: ChangedChannels) => void): () => void {
    this.#channelListeners.add(listener);
    return () => this.#channelListeners.delete(listener);
  }

  /** The write's result, once its listeners have heard which channels it changed. */
  async #changing<T>(channels: ChangedChannels, write: Promise<T>): Promise<T> {
    const result = await write;
    for (const listener of this.#channelListeners) {
      try {
        listener(channels);
      } catch {
        // a listener's failure is its own: the write is done
      }
    }
    return result;
  }

  addFeed(url: string, now: string): Promise<StoredFeed> {
    return feeds.addFeed(this.#db, this.dialect, url, now);
  }

  getFeed(id: number): Promise<StoredFeed | undefined> {
    return feeds.getFeed(this.#db, id);
  }

  findFeedByUrl(url: string): Promise<StoredFeed | undefined> {
    return feeds.findFeedByUrl(this.#db, url);
  }

  listFeeds(): Promise<StoredFeed[]> {
    return feeds.listFeeds(this.#db);
  }

  listFeedSummaries(): Promise<FeedSummary[]> {
    return listFeedSummaries(this.#db);
  }

  nextCheckTime(): Promise<string | undefined> {
    return feeds.nextCheckTime(this.#db, this.dialect);
  }

  updateFeed(id: number, patch: FeedPatch): Promise<void> {
    return feeds.updateFeed(this.#db, this.dialect, id, patch);
  }

  removeFeed(id: number): Promise<void> {
    return this.#changing('all', feeds.removeFeed(this.#db, this.dialect, id));
  }

  async claimDueFeeds(options: ClaimOptions): Promise<StoredFeed[]> {
    const rows = await this.#backend.claimDueFeeds(this.#db, options);
    return rows.map(feedFromRow);
  }

  releaseFeed(id: number, workerId: string): Promise<void> {
    return feeds.releaseFeed(this.#db, id, workerId);
  }

  countClaimableFeeds(options: ClaimFilter): Promise<number> {
    return countClaimableFeeds(this.#db, options, this.dialect);
  }

  renewLeases(ids: readonly number[], workerId: string, leaseExpiresAt: string): Promise<number> {
    return feeds.renewLeases(this.#db, ids, workerId, leaseExpiresAt);
  }

  releaseFeeds(
    ids: readonly number[],
    workerId: string,
    options?: { unclaimRound?: string },
  ): Promise<number> {
    return feeds.releaseFeeds(this.#db, ids, workerId, options);
  }

  joinPollRound(kind: PollRoundKind, now: string, expiresAt: string): Promise<PollRound> {
    return pollRounds.joinPollRound(this.#db, this.dialect, kind, now, expiresAt);
  }

  renewPollRound(key: string, expiresAt: string): Promise<void> {
    return pollRounds.renewPollRound(this.#db, this.dialect, key, expiresAt);
  }

  closePollRound(key: string): Promise<void> {
    return pollRounds.closePollRound(this.#db, this.dialect, key);
  }

  entryHashes(
    feedId: number,
    guids: readonly string[],
  ): Promise<Map<string, { id: number; contentHash: string }>> {
    return entries.entryHashes(this.#db, this.dialect, feedId, guids);
  }

  entriesByUrlKey(
    feedId: number,
    urlKeys: readonly string[],
  ): Promise<Map<string, { id: number; guid: string; contentHash: string }>> {
    return entries.entriesByUrlKey(this.#db, feedId, urlKeys);
  }

  async recordPoll(outcome: PollOutcome): Promise<{ insertedIds: number[]; updatedIds: number[] }> {
    return this.#pollWriter.write(entries.pollRows(this.dialect, outcome));
  }

  getEntry(id: number): Promise<StoredEntry | undefined> {
    return entries.getEntry(this.#db, id);
  }

  listFeedEntries(feedId: number, limit: number): Promise<StoredEntry[]> {
    return entries.listFeedEntries(this.#db, feedId, limit);
  }

  listHeartbeatBars(feedIds: readonly number[], limit: number): Promise<Map<number, HeartbeatBar[]>> {
    return listHeartbeatBars(this.#db, feedIds, limit);
  }

  listHeartbeats(feedId: number, limit: number): Promise<Heartbeat[]> {
    return entries.listHeartbeats(this.#db, feedId, limit);
  }

  listChannels(): Promise<Channel[]> {
    return channels.listChannels(this.#db);
  }

  createChannel(name: string, uid?: string): Promise<Channel> {
    return channels.createChannel(this.#db, name, uid);
  }

  getChannel(uid: string): Promise<Channel | undefined> {
    return channels.getChannel(this.#db, this.dialect, uid);
  }

  renameChannel(uid: string, name: string): Promise<void> {
    return channels.renameChannel(this.#db, uid, name);
  }

  deleteChannel(uid: string): Promise<void> {
    return channels.deleteChannel(this.#db, uid);
  }

  orderChannels(uids: readonly string[]): Promise<void> {
    return channels.orderChannels(this.#db, uids);
  }

  subscribe(channelId: number, feedId: number, now: string): Promise<Subscription> {
    return this.#changing([channelId], channels.subscribe(this.#db, this.dialect, channelId, feedId, now));
  }

  unsubscribe(channelId: number, feedId: number): Promise<void> {
    return this.#changing([channelId], channels.unsubscribe(this.#db, this.dialect, channelId, feedId));
  }

  listSubscriptions(channelId?: number): Promise<(Subscription & { feed: StoredFeed })[]> {
    return channels.listSubscriptions(this.#db, channelId);
  }

  listSubscriptionRefs(only?: channels.SubscriptionFilter): Promise<channels.SubscriptionRef[]> {
    return channels.listSubscriptionRefs(this.#db, only);
  }

  // subscriptions
  sweepUnfollowedFeeds(now: string, keepDays: number): Promise<UnfollowedSweep> {
    return unfollowed.sweepUnfollowedFeeds(this.#db, this.dialect, now, keepDays);
  }

  timeline(query: TimelineQuery): Promise<TimelinePage> {
    return timelines.timeline(this.#db, this.dialect, query);
  }

  timelineRefs(query: TimelineQuery): Promise<TimelineRefPage> {
    return timelines.timelineRefs(this.#db, this.dialect, query);
  }

  entriesById(channelId: number, ids: readonly number[]): Promise<TimelineEntry[]> {
    return timelines.entriesById(this.#db, channelId, ids);
  }

  markRead(channelId: number, entryIds: readonly number[], read: boolean, now: string): Promise<void> {
    const write = states.markRead(this.#db, this.dialect, channelId, entryIds, read, now);
    return this.#changing([channelId], write);
  }

  markReadUpTo(channelId: number, entryId: number, now: string): Promise<void> {
    return this.#changing([channelId], states.markReadUpTo(this.#db, this.dialect, channelId, entryId, now));
  }

  removeEntries(channelId: number, entryIds: readonly number[], now: string): Promise<void> {
    const write = states.removeEntries(this.#db, this.dialect, channelId, entryIds, now);
    return this.#changing([channelId], write);
  }

  removeFeedEntries(channelId: number, feedId: number, now: string): Promise<void> {
    const write = states.removeFeedEntries(this.#db, this.dialect, channelId, feedId, now);
    return this.#changing([channelId], write);
  }

  moveSubscription(feedId: number, fromChannelId: number, toChannelId: number, now: string): Promise<void> {
    const write = states.moveSubscription(this.#db, this.dialect, feedId, fromChannelId, toChannelId, now);
    return this.#changing([fromChannelId, toChannelId], write);
  }

  unreadCounts(): Promise<ChannelCount[]> {
    return counts.unreadCounts(this.#db);
  }

  channelSummaries(): Promise<ChannelSummary[]> {
    return counts.channelSummaries(this.#db);
  }

  addFilter(rule: FilterRule, now: string): Promise<Filter> {
    return this.#changing(channelsOf(rule), filters.addFilter(this.#db, this.dialect, rule, now));
  }

  removeFilter(rule: FilterRule): Promise<void> {
    return this.#changing(channelsOf(rule), filters.removeFilter(this.#db, this.dialect, rule));
  }

  listFilters(kind: 'mute' | 'block', channelId?: number): Promise<Filter[]> {
    return filters.listFilters(this.#db, kind, channelId);
  }

  searchEntries(query: SearchQuery): Promise<TimelinePage> {
    return search.searchEntries(this.#db, this.dialect, query);
  }

  // reader
  allUnread(query: UnreadQuery): Promise<TimelinePage> {
    return readerViews.allUnread(this.#db, this.dialect, query);
  }

  allUnreadCount(): Promise<number> {
    return allUnreadCount(this.#db, this.dialect);
  }

  savedEntries(query: UnreadQuery): Promise<TimelinePage> {
    return savedView.savedEntries(this.#db, query);
  }

  savedCursor(entryId: number): Promise<string | undefined> {
    return savedView.savedCursor(this.#db, entryId);
  }

  markReadReturningIds(
    channelId: number,
    scope: { feedId?: number | undefined; upToEntryId?: number | undefined },
    now: string,
  ): Promise<number[]> {
    const write = readerViews.markReadReturningIds(this.#db, this.dialect, channelId, scope, now);
    return this.#changing([channelId], write);
  }

  feedIcon(feedId: number): Promise<FeedIcon | undefined> {
    return feedIcons.feedIcon(this.#db, feedId);
  }

  saveFeedIcon(
    feedId: number,
    icon: { contentType: string; bytes: Uint8Array } | undefined,
    now: string,
  ): Promise<void> {
    return feedIcons.saveFeedIcon(this.#db, feedId, icon, now);
  }

  feedIdsWithIcons(): Promise<number[]> {
    return feedIcons.feedIdsWithIcons(this.#db);
  }

  saveFeedIcons(records: readonly FeedIconRecord[]): Promise<void> {
    return feedIcons.saveFeedIcons(this.#db, records);
  }

  feedIconTimes(feedIds: readonly number[]): Promise<Map<number, string>> {
    return feedIcons.feedIconTimes(this.#db, feedIds);
  }

  createToken(
    token: { tokenHash: string; scope: string; label?: string },
    now: string,
  ): Promise<StoredToken> {
    return tokens.createToken(this.#db, token, now);
  }

  findToken(tokenHash: string): Promise<StoredToken | undefined> {
    return tokens.findToken(this.#db, this.dialect, tokenHash);
  }

  listTokens(): Promise<StoredToken[]> {
    return tokens.listTokens(this.#db);
  }

  revokeToken(id: number, now: string): Promise<void> {
    return tokens.revokeToken(this.#db, id, now);
  }

  touchToken(id: number, now: string): Promise<void> {
    return tokens.touchToken(this.#db, id, now);
  }

  // reading at scale

  applyRetention(policy: RetentionPolicy): Promise<{ removed: number }> {
    return retention.applyRetention(this.#db, this.dialect, policy);
  }

  checkReadingState(options: { repair: boolean }): Promise<ReadingStateReport> {
    return doctor.checkReadingState(this.#db, this.dialect, options);
  }

  getSetting(key: string): Promise<string | undefined> {
    return settings.getSetting(this.#db, key);
  }

  setSetting(key: string, value: string): Promise<void> {
    return settings.setSetting(this.#db, key, value);
  }

  // saved entries and sync
  setSaved(entryIds: readonly number[], saved: boolean, now: string): Promise<void> {
    return sync.setSaved(this.#db, entryIds, saved, now);
  }

  setReadEverywhere(filter: SyncFilter, read: boolean, now: string): Promise<void> {
    return this.#changing('all', this.#setReadEverywhere(filter, read, now));
  }

  async #setReadEverywhere(filter: SyncFilter, read: boolean, now: string): Promise<void> {
    if (filter.ids === undefined) return sync.setReadEverywhere(this.#db, this.dialect, filter, read, now);
    for (const ids of chunk([...new Set(filter.ids)], 500))
      await sync.setReadEverywhere(this.#db, this.dialect, { ...filter, ids }, read, now);
  }

  syncKeys(query: SyncQuery): Promise<SyncKey[]> {
    return sync.syncKeys(this.#db, query);
  }

  syncIds(filter: SyncFilter): Promise<number[]> {
    return sync.syncIds(this.#db, filter);
  }

  syncCount(filter: SyncFilter): Promise<number> {
    return sync.syncCount(this.#db, filter);
  }

  syncEntries(ids: readonly number[]): Promise<SyncEntry[]> {
    return sync.syncEntries(this.#db, ids);
  }

  entrySizes(ids: readonly number[]): Promise<Map<number, number>> {
    return entrySizes(this.#db, ids);
  }

  syncUnreadCounts(): Promise<SyncFeedCount[]> {
    return sync.syncUnreadCounts(this.#db);
  }

  createApiToken(tokenHash: string, now: string): Promise<void> {
    return apiTokens.createApiToken(this.#db, tokenHash, now);
  }

  findApiToken(tokenHash: string): Promise<StoredApiToken | undefined> {
    return apiTokens.findApiToken(this.#db, tokenHash);
  }

  touchApiToken(id: number, now: string): Promise<void> {
    return apiTokens.touchApiToken(this.#db, id, now);
  }

  deleteApiTokens(): Promise<void> {
    return apiTokens.deleteApiTokens(this.#db);
  }
}

/** The channels a mute or block rule applies to: its channel, or all for a global one. */
function channelsOf(rule: FilterRule): ChangedChannels {
  return rule.channelId === undefined ? 'all' : [rule.channelId];
}
