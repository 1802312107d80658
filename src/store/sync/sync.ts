import {
  type Expression,
  type ExpressionWrapper,
  expressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { changing, StoreArea } from '../area.js';
import * as shown from '../channel-entries.js';
import { isSaved, loadEntriesWithFeeds } from '../reading/index.js';
import type { Database } from '../schema.js';
import type { SyncEntry, SyncFeedCount, SyncFilter, SyncKey, SyncQuery } from '../types.js';
import { chunk, rowCount, toDbBool, toIso } from '../values.js';
import { hasState, isFiltered, isShown } from '../visibility.js';

// Queries of the sync APIs (Google Reader, Fever): streams of entries by id, the apps' read rule
// (SyncFilter in ../types.ts) and saved entries.

type Dialect = 'sqlite' | 'postgres';
type Scope = 'entries' | 'feeds';

const ID_CHUNK = 500;
const eb = expressionBuilder<Database, Scope>();

/** SQL: the ids of the user's channels. */
function channelsOf(userId: number) {
  return eb.selectFrom('channels').select('channels.id').where('channels.user_id', '=', userId);
}

/**
 * True when a channel of the user (this one, or any) follows the entry's feed and shows the entry,
 * unread if asked.
 */
function shownInChannel(
  userId: number,
  options: {
    channelId?: number | undefined;
    unread?: boolean;
  },
): ExpressionWrapper<Database, Scope, SqlBool> {
  let subscriptions = eb
    .selectFrom('subscriptions')
    .select('subscriptions.id')
    .whereRef('subscriptions.feed_id', '=', 'entries.feed_id')
    .where(isShown(userId));
  subscriptions =
    options.channelId !== undefined
      ? subscriptions
          .where('subscriptions.channel_id', '=', options.channelId)
          .where('subscriptions.channel_id', 'in', channelsOf(userId))
      : subscriptions.where('subscriptions.channel_id', 'in', channelsOf(userId));
  if (options.unread) subscriptions = subscriptions.where(eb.not(hasState(['is_read'])));
  return eb.exists(subscriptions);
}

/**
 * True when a channel of the user follows the entry's feed. The apps see every entry of a followed feed;
 * one that is removed, muted or blocked in every channel is read for them (isUnreadForApps).
 */
function isFollowed(userId: number): ExpressionWrapper<Database, Scope, SqlBool> {
  return eb(
    'entries.feed_id',
    'in',
    eb
      .selectFrom('subscriptions')
      .select('subscriptions.feed_id')
      .where('subscriptions.channel_id', 'in', channelsOf(userId)),
  );
}

/** True when the user's apps see the entry as unread: some channel of theirs shows it unread. */
function isUnreadForApps(userId: number): ExpressionWrapper<Database, Scope, SqlBool> {
  return shownInChannel(userId, { unread: true });
}

/**
 * True when the user may see the entry at all: a channel of theirs follows its feed, or they saved it;
 * and no hide rule of theirs hid it (rules/apply.ts; hiding wins over a save rule that matched too).
 */
function isVisible(userId: number): ExpressionWrapper<Database, Scope, SqlBool> {
  return eb.and([eb.or([isFollowed(userId), isSaved(userId)]), isNotRuleHidden(userId)]);
}

/**
 * True unless a hide rule of the user hid the entry: it is never shown, in the apps either. A list the
 * database makes once per statement (NOT IN), not a look-up per entry: the streams test every row.
 */
function isNotRuleHidden(userId: number): ExpressionWrapper<Database, Scope, SqlBool> {
  return eb(
    'entries.id',
    'not in',
    eb
      .selectFrom('hidden_entries')
      .select('hidden_entries.entry_id')
      .where('hidden_entries.user_id', '=', userId),
  );
}

/**
 * The conditions of a filter on entries joined with their feeds; `joined` leaves out what a join with
 * the subscriptions that show the entry unread already holds (unreadSelection).
 */
function conditions(filter: SyncFilter, userId: number, joined = false): Expression<SqlBool>[] {
  // alerts are the notifications channel's, never an item of their feed in the apps
  const all: Expression<SqlBool>[] = [shown.notAlert('entries') as Expression<SqlBool>];
  if (joined) filter = { ...filter, readState: undefined, savedOnly: undefined };
  // An entry unread for the apps is followed already: the cheap "followed" test is left out then.
  if (filter.savedOnly) all.push(isSaved(userId));
  else if (filter.readState !== 'unread' && !joined) all.push(isVisible(userId));
  if (filter.unsavedOnly) all.push(eb.not(isSaved(userId)));
  if (filter.channelId !== undefined) all.push(shownInChannel(userId, { channelId: filter.channelId }));
  if (filter.feedId !== undefined) all.push(eb('entries.feed_id', '=', filter.feedId));
  if (filter.readState === 'unread') all.push(isUnreadForApps(userId));
  if (filter.readState === 'read') all.push(eb.not(isUnreadForApps(userId)));
  if (filter.seenFrom !== undefined)
    all.push(eb('entries.first_seen_at', '>=', toIso(filter.seenFrom, 'seenFrom')));
  if (filter.seenUntil !== undefined)
    all.push(eb('entries.first_seen_at', '<=', toIso(filter.seenUntil, 'seenUntil')));
  if (filter.idAbove !== undefined) all.push(eb('entries.id', '>', filter.idAbove));
  if (filter.idBelow !== undefined) all.push(eb('entries.id', '<', filter.idBelow));
  if (filter.ids !== undefined) all.push(eb('entries.id', 'in', filter.ids.length ? [...filter.ids] : [-1]));
  return all;
}

function selection(
  db: Kysely<Database>,
  filter: SyncFilter,
  userId: number,
): SelectQueryBuilder<Database, Scope, object> {
  // the starred stream starts from the few saved entries rather than testing every entry
  const from = filter.savedOnly
    ? db
        .selectFrom('entries')
        .where(
          'entries.id',
          'in',
          db
            .selectFrom('saved_entries')
            .select('saved_entries.entry_id')
            .where('saved_entries.user_id', '=', userId),
        )
    : db.selectFrom('entries');
  return from.innerJoin('feeds', 'feeds.id', 'entries.feed_id').where(eb.and(conditions(filter, userId)));
}

/**
 * The unread entries of a filter as rows of subscriptions joined with the entries they show unread: an
 * entry appears once per such channel (select it DISTINCT). Reading every unread entry this way, from
 * each subscription down its feed's entries, needs no test of every entry for an unread channel.
 */
function unreadSelection(db: Kysely<Database>, filter: SyncFilter, userId: number) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('entries', 'entries.feed_id', 'subscriptions.feed_id')
    .innerJoin('feeds', 'feeds.id', 'entries.feed_id')
    .where('subscriptions.channel_id', 'in', channelsOf(userId))
    .where(eb.not(hasState(['is_read', 'is_removed'])))
    .where(eb.not(isFiltered(userId)))
    .where(eb.and(conditions(filter, userId, true)));
}

async function keysOf(
  db: Kysely<Database>,
  query: SyncQuery,
  limit: number,
  userId: number,
): Promise<SyncKey[]> {
  const rows = await selection(db, query, userId)
    .select(['entries.id', 'entries.first_seen_at'])
    .orderBy('entries.id', query.oldestFirst ? 'asc' : 'desc')
    .limit(rowCount(limit))
    .execute();
  return rows.map((row) => ({ id: row.id, firstSeenAt: row.first_seen_at }));
}

/**
 * The unread stream read in windows of ids (each twice the last), in the order asked. PostgreSQL plans
 * "unread, newest first, limit 1,000" as a test of every entry and a sort (0.9 s over 100,000 entries,
 * bench:sync), where a window of ids is an index range; SQLite walks the id index either way.
 */
async function unreadKeysByWindow(
  db: Kysely<Database>,
  query: SyncQuery,
  limit: number,
  userId: number,
): Promise<SyncKey[]> {
  const bounds = await db
    .selectFrom('entries')
    .select((s) => [s.fn.min('entries.id').as('low'), s.fn.max('entries.id').as('high')])
    .executeTakeFirst();
  if (bounds?.low == null || bounds.high == null) return [];
  const low = Math.max(Number(bounds.low) - 1, query.idAbove ?? 0);
  const high = Math.min(Number(bounds.high) + 1, query.idBelow ?? Number.MAX_SAFE_INTEGER);
  const keys: SyncKey[] = [];
  let width = Math.max(limit * 2, 1000);
  let edge = query.oldestFirst ? low : high;
  if (low >= high - 1) return [];
  for (;;) {
    const window = query.oldestFirst
      ? { idAbove: edge, idBelow: Math.min(high, edge + width + 1) }
      : { idAbove: Math.max(low, edge - width - 1), idBelow: edge };
    keys.push(...(await keysOf(db, { ...query, ...window }, limit - keys.length, userId)));
    const isLast = query.oldestFirst ? window.idBelow >= high : window.idAbove <= low;
    if (keys.length >= limit || isLast) return keys;
    edge = query.oldestFirst ? window.idBelow - 1 : window.idAbove + 1;
    width *= 2;
  }
}

/**
 * Marks the entries a filter selects read (or unread) in every channel of the user that follows their
 * feed, in one statement; entries of feeds no channel follows have no read state to change.
 */
async function setReadIn(
  db: Kysely<Database>,
  dialect: Dialect,
  filter: SyncFilter,
  read: boolean,
  now: string,
  userId: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const followers = () =>
      selection(trx, filter, userId)
        .innerJoin('subscriptions', 'subscriptions.feed_id', 'entries.feed_id')
        .where('subscriptions.channel_id', 'in', channelsOf(userId));
    const pairs = await followers().select(['subscriptions.channel_id', 'entries.id as entry_id']).execute();
    if (pairs.length === 0) return;
    const rows = followers().select((s) => [
      'subscriptions.channel_id',
      s.ref('entries.id').as('entry_id'),
      s.val(toDbBool(read, dialect)).as('is_read'),
      s.val(toDbBool(false, dialect)).as('is_removed'),
      s.val(toIso(now, 'now')).as('updated_at'),
    ]);
    await trx
      .insertInto('entry_states')
      .columns(['channel_id', 'entry_id', 'is_read', 'is_removed', 'updated_at'])
      .expression(rows)
      .onConflict((conflict) =>
        conflict.columns(['channel_id', 'entry_id']).doUpdateSet((update) => ({
          is_read: update.ref('excluded.is_read'),
          updated_at: update.ref('excluded.updated_at'),
        })),
      )
      .execute();
    // the kept per-channel rows and unread counts follow in the same transaction (channel-entries.ts)
    const byChannel = new Map<number, number[]>();
    for (const { channel_id, entry_id } of pairs) {
      const ids = byChannel.get(channel_id) ?? [];
      ids.push(entry_id);
      byChannel.set(channel_id, ids);
    }
    for (const [channelId, entryIds] of byChannel)
      await shown.setFlag(trx, dialect, channelId, { entryIds }, { flag: 'is_read', value: read });
  });
}

/**
 * The sync APIs' view of the user's entries (Google Reader, Fever): streams by entry id, read by the
 * apps' rule (src/reading), saved entries, and the feeds' unread counts. An entry the user neither
 * follows nor saved is in no stream, and acting on it changes nothing.
 */
export class Sync extends StoreArea {
  /** One page of a sync stream's keys, by id, newest first unless `oldestFirst`. */
  async keys(query: SyncQuery): Promise<SyncKey[]> {
    const db = this.db;
    const limit = Math.max(1, Math.floor(query.limit));
    if (query.readState === 'unread' && !query.savedOnly && query.ids === undefined)
      return unreadKeysByWindow(db, query, limit, this.userId);
    return keysOf(db, query, limit, this.userId);
  }

  /** Every id of a sync stream, ascending (Fever's unread and saved id lists). */
  async ids(filter: SyncFilter): Promise<number[]> {
    const db = this.db;
    if (filter.readState === 'unread' && !filter.savedOnly) {
      const unread = await unreadSelection(db, filter, this.userId)
        .select('entries.id')
        .distinct()
        .orderBy('entries.id')
        .execute();
      return unread.map((row) => row.id);
    }
    const rows = await selection(db, filter, this.userId)
      .select('entries.id')
      .orderBy('entries.id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** How many entries a sync stream holds. */
  async count(filter: SyncFilter): Promise<number> {
    const db = this.db;
    if (filter.readState === 'unread' && !filter.savedOnly) {
      const unread = await unreadSelection(db, filter, this.userId)
        .select((s) => s.fn.count('entries.id').distinct().as('n'))
        .executeTakeFirst();
      return Number(unread?.n ?? 0);
    }
    const row = await selection(db, filter, this.userId)
      .select((s) => s.fn.countAll().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * The entries with these ids, in the order asked, as the user's apps see them; unknown ids, and those of
   * entries the user neither follows nor saved, are left out.
   */
  entries(ids: readonly number[]): Promise<SyncEntry[]> {
    const userId = this.userId;
    return loadEntriesWithFeeds(this.db, [...new Set(ids)], {
      isRead: eb.not(isUnreadForApps(userId)),
      userId,
      visible: isVisible(userId),
    });
  }

  /** Every feed's count of entries the apps see as unread (feeds without any are left out). */
  async unreadCounts(): Promise<SyncFeedCount[]> {
    const db = this.db;
    // max(id) rather than max(first_seen_at): ids grow with the crawl time, and the grouping then reads
    // the timeline index, not every entry's row
    const rows = await unreadSelection(db, {}, this.userId)
      .select((s) => [
        'entries.feed_id',
        s.fn.count('entries.id').distinct().as('unread'),
        s.fn.max('entries.id').as('newest'),
      ])
      .groupBy('entries.feed_id')
      .orderBy('entries.feed_id')
      .execute();
    const newest = new Map<number, string>();
    for (const part of chunk(
      rows.map((row) => Number(row.newest)),
      ID_CHUNK,
    )) {
      const seen = await db
        .selectFrom('entries')
        .select(['id', 'first_seen_at'])
        .where('id', 'in', part)
        .execute();
      for (const row of seen) newest.set(row.id, row.first_seen_at);
    }
    return rows.map((row) => ({
      feedId: row.feed_id,
      unread: Number(row.unread),
      newestSeenAt: newest.get(Number(row.newest)) ?? '',
    }));
  }

  /** The feeds of the user's saved entries, by id: what the apps list for them, without reading the entries. */
  async savedFeedIds(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('saved_entries')
      .innerJoin('entries', 'entries.id', 'saved_entries.entry_id')
      .select('entries.feed_id')
      .distinct()
      .where('saved_entries.user_id', '=', this.userId)
      .orderBy('entries.feed_id')
      .execute();
    return rows.map((row) => Number(row.feed_id));
  }

  /**
   * Saves (or unsaves) the user's entries with these ids; unknown ids, and entries of feeds the user does
   * not follow, are ignored; saving twice keeps the first time.
   */
  async setSaved(entryIds: readonly number[], saved: boolean, now: string): Promise<void> {
    const db = this.db;
    const userId = this.userId;
    const ids = [...new Set(entryIds)];
    for (const part of chunk(ids, ID_CHUNK)) {
      if (!saved) {
        await db
          .deleteFrom('saved_entries')
          .where('user_id', '=', userId)
          .where('entry_id', 'in', part)
          .execute();
        continue;
      }
      const rows = db
        .selectFrom('entries')
        .select((s) => [
          s.val(userId).as('user_id'),
          'entries.id as entry_id',
          s.val(toIso(now, 'now')).as('saved_at'),
        ])
        .where('entries.id', 'in', part)
        .where(isFollowed(userId));
      await db
        .insertInto('saved_entries')
        .columns(['user_id', 'entry_id', 'saved_at'])
        .expression(rows)
        .onConflict((conflict) => conflict.columns(['user_id', 'entry_id']).doNothing())
        .execute();
    }
  }

  /**
   * Marks the entries a sync filter selects read (or unread) in every channel of the user that follows their feed
   * (the apps' rule: src/reading). An `ids` filter may hold any number of ids.
   */
  setReadEverywhere(filter: SyncFilter, read: boolean, now: string): Promise<void> {
    return changing(this.area, 'all', async () => {
      if (filter.ids === undefined) return setReadIn(this.db, this.dialect, filter, read, now, this.userId);
      for (const ids of chunk([...new Set(filter.ids)], 500))
        await setReadIn(this.db, this.dialect, { ...filter, ids }, read, now, this.userId);
    });
  }
}
