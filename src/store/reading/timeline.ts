import {
  type ExpressionWrapper,
  expressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
} from 'kysely';
import { ENTRY_COLUMNS, entryFromRow } from '../entry-rows.js';
import { type KeyPage, type KeyQuery, type KeyRow, pageKeys } from '../paging.js';
import type { Database, DbBool, EntryTable } from '../schema.js';
import type { TimelineEntry, TimelineQuery, TimelineRef } from '../types.js';
import { chunk, fromDbBool, rowCount } from '../values.js';
import { CHANNEL_KEYS, channelEntryKeys, channelKeysTemplate } from '../visibility.js';

const ID_CHUNK = 500;

/** Whose read state a loaded entry carries: one channel's, or read in any channel of the user. */
export type ReadStateOf = { channelId: number } | { anyChannelOf: number };

export function timelineKeys(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', query: TimelineQuery) {
  return channelPage(db, dialect, query, 'timeline-keys', (keys) => keys);
}

/**
 * One page of the channel's keys (channelEntryKeys, paged by CHANNEL_KEYS), each row with what `extend`
 * joins and selects; the query compiled once per shape under `name`. `selected` are the values that
 * `extend`'s columns bind, in order (they come before the keys' own in the SQL): a query whose values
 * differ from the template's is compiled again on every call (query-template.ts).
 */
export function channelPage<TB extends keyof Database, R extends KeyRow>(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  query: TimelineQuery,
  name: string,
  extend: (keys: KeyQuery<'channel_entries'>) => KeyQuery<TB, R>,
  selected: readonly unknown[] = [],
): Promise<KeyPage<R>> {
  const options = { feedId: query.feedId, unreadOnly: query.unreadOnly };
  const template = channelKeysTemplate(db, `${dialect}:${name}`, query.channelId, options);
  return pageKeys(
    () => extend(channelEntryKeys(db, dialect, query.channelId, options)),
    query,
    CHANNEL_KEYS,
    { ...template, values: [...selected, ...template.values] },
  );
}

// The entry's feed and state, as a timeline row carries them beside the entry's columns; the feed's title
// comes from channelFeedTitle or feedTitleFor.
export const FEED_COLUMNS = [
  'feeds.url as feed_url',
  'feeds.site_url as feed_site_url',
  'feeds.icon_url as feed_icon_url',
] as const;

const ebCe = expressionBuilder<Database, 'channel_entries' | 'feeds'>();

/**
 * The title of a channel row's feed as the user named it (their subscription's own title in that channel),
 * else the feed's: what the sidebar and the feed's settings show, in every list of entries too.
 */
export function channelFeedTitle() {
  const own = ebCe
    .selectFrom('subscriptions')
    .select('subscriptions.title')
    .whereRef('subscriptions.channel_id', '=', 'channel_entries.channel_id')
    .whereRef('subscriptions.feed_id', '=', 'channel_entries.feed_id');
  return ebCe.fn.coalesce(own, ebCe.ref('feeds.title')).as('feed_title');
}

const ebEf = expressionBuilder<Database, 'entries' | 'feeds'>();

/**
 * The title of an entry's feed as the user named it: their own title in the channel `readState` names, or
 * of the first of their channels that gives one; else the feed's.
 */
function feedTitleFor(readState: ReadStateOf) {
  const own =
    'anyChannelOf' in readState
      ? subscriptionsOfEntryFeed(readState.anyChannelOf)
          .select('subscriptions.title')
          .where('subscriptions.title', 'is not', null)
          .orderBy('channels.position')
          .orderBy('channels.id')
          .limit(rowCount(1))
      : ebEf
          .selectFrom('subscriptions')
          .select('subscriptions.title')
          .whereRef('subscriptions.feed_id', '=', 'entries.feed_id')
          .where('subscriptions.channel_id', '=', readState.channelId);
  return ebEf.fn.coalesce(own, ebEf.ref('feeds.title')).as('feed_title');
}

interface FeedAndState {
  feed_id: number;
  feed_url: string;
  feed_title: string | null;
  feed_site_url: string | null;
  feed_icon_url: string | null;
  is_read: DbBool;
  is_saved: DbBool;
}

/** The feed a timeline row names; optional fields set in place. */
function feedOfRow(row: FeedAndState): TimelineEntry['feed'] {
  const feed: TimelineEntry['feed'] = { id: row.feed_id, url: row.feed_url };
  if (row.feed_title !== null) feed.title = row.feed_title;
  if (row.feed_site_url !== null) feed.siteUrl = row.feed_site_url;
  if (row.feed_icon_url !== null) feed.iconUrl = row.feed_icon_url;
  return feed;
}

type RefRow = FeedAndState & { id: number; changed_at: string };

export function refFromRow(row: RefRow): TimelineRef {
  const feed = feedOfRow(row);
  return {
    id: row.id,
    changedAt: row.changed_at,
    isRead: fromDbBool(row.is_read),
    isSaved: fromDbBool(row.is_saved),
    feed,
  };
}

const eb = expressionBuilder<Database, 'entries'>();

/** The user's subscriptions to the entry's feed, in any of their channels (a subquery on `entries`). */
function subscriptionsOfEntryFeed(userId: number) {
  return eb
    .selectFrom('subscriptions')
    .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
    .whereRef('subscriptions.feed_id', '=', 'entries.feed_id')
    .where('channels.user_id', '=', userId);
}

/**
 * True when the entry is read in the channel; for any channel of a user, in any of the user's channels
 * that follows its feed (a state left behind by an unsubscribed channel does not count).
 */
function isRead(readState: ReadStateOf): ExpressionWrapper<Database, 'entries', SqlBool> {
  const channels =
    'anyChannelOf' in readState
      ? subscriptionsOfEntryFeed(readState.anyChannelOf).select('subscriptions.channel_id')
      : [readState.channelId];
  return eb.exists(
    eb
      .selectFrom('entry_states')
      .select('entry_states.entry_id')
      .whereRef('entry_states.entry_id', '=', 'entries.id')
      .where('entry_states.is_read', '=', eb.lit(true))
      .where('entry_states.channel_id', 'in', channels),
  );
}

/**
 * Loads entries with their feeds and the user's read and saved state, in the order of `ids`; missing ids
 * are left out, and so are ids that `visible` (when given) refuses.
 */
export function loadTimelineEntries(
  db: Kysely<Database>,
  ids: readonly number[],
  readState: ReadStateOf,
  userId: number,
  visible?: ExpressionWrapper<Database, 'entries' | 'feeds', SqlBool>,
): Promise<TimelineEntry[]> {
  return loadEntriesWithFeeds(db, ids, { isRead: isRead(readState), userId, visible, titleOf: readState });
}

/** True when the user saved (starred) the entry. */
export function isSaved(userId: number): ExpressionWrapper<Database, 'entries', SqlBool> {
  return eb.exists(
    eb
      .selectFrom('saved_entries')
      .select('saved_entries.entry_id')
      .whereRef('saved_entries.entry_id', '=', 'entries.id')
      .where('saved_entries.user_id', '=', userId),
  );
}

/** True when the channel has the entry (its feed is one the channel follows). */
export function inChannel(channelId: number): ExpressionWrapper<Database, 'entries', SqlBool> {
  return eb.exists(
    eb
      .selectFrom('channel_entries')
      .select('channel_entries.entry_id')
      .whereRef('channel_entries.entry_id', '=', 'entries.id')
      .where('channel_entries.channel_id', '=', channelId),
  );
}

/**
 * Loads entries with their feeds, the user's saved state and the read state `isRead` works out (a
 * channel's, any channel's, the apps' rule), in the order of `ids`; missing ids are left out, and so are
 * those `visible` (when given) refuses.
 */
export async function loadEntriesWithFeeds(
  db: Kysely<Database>,
  ids: readonly number[],
  state: {
    isRead: ExpressionWrapper<Database, 'entries' | 'feeds', SqlBool>;
    userId: number;
    visible?: ExpressionWrapper<Database, 'entries' | 'feeds', SqlBool> | undefined;
    /** Whose title of the feed to show (default: the user's, in any of their channels). */
    titleOf?: ReadStateOf;
  },
): Promise<(TimelineEntry & { isSaved: boolean })[]> {
  const byId = new Map<number, TimelineEntry & { isSaved: boolean }>();
  const title = feedTitleFor(state.titleOf ?? { anyChannelOf: state.userId });
  for (const part of chunk(ids, ID_CHUNK)) {
    let query = db
      .selectFrom('entries')
      .innerJoin('feeds', 'feeds.id', 'entries.feed_id')
      .select(ENTRY_COLUMNS)
      .select([...FEED_COLUMNS, title, state.isRead.as('is_read'), isSaved(state.userId).as('is_saved')])
      .where('entries.id', 'in', part);
    if (state.visible !== undefined) query = query.where(state.visible);
    const rows = await query.execute();
    for (const row of rows) byId.set(row.id, timelineEntryFromRow(row));
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type TimelineRow = Selectable<EntryTable> & FeedAndState;

/** The timeline entry a row of entries joined with its feed holds. */
function timelineEntryFromRow(row: TimelineRow): TimelineEntry & { isSaved: boolean } {
  // set in place, as entryFromRow does: copying the row without its feed columns first (rest and
  // spread) cost a 20-entry page 0.15 ms
  const feed = feedOfRow(row);
  const entry = entryFromRow(row) as TimelineEntry & { isSaved: boolean };
  entry.isRead = fromDbBool(row.is_read);
  entry.isSaved = fromDbBool(row.is_saved);
  entry.feed = feed;
  return entry;
}
