import type { Kysely } from 'kysely';
import { type ExpressionBuilder, expressionBuilder, type SqlBool, sql } from 'kysely';
import { changing, StoreArea } from '../area.js';
import * as shown from '../channel-entries.js';
import { flag } from '../channel-entries.js';
import { encodeCursor } from '../cursor.js';
import { entrySizes } from '../entry-sizes.js';
import {
  ENTRY_KEYS,
  type KeyColumns,
  type KeyPage,
  type KeyQuery,
  pageCursors,
  pageKeys,
  toPage,
} from '../paging.js';
import { runTemplateOf } from '../query-template.js';
import { channelFromRow } from '../rows.js';
import type { Database } from '../schema.js';
import type {
  ChannelCount,
  ChannelSummary,
  ReadingStateReport,
  SearchQuery,
  TimelineEntry,
  TimelinePage,
  TimelineQuery,
  TimelineRefPage,
  UnreadQuery,
} from '../types.js';
import { anyChannelEntryKeys, CHANNEL_KEYS, channelEntryKeys } from '../visibility.js';
import { allUnreadOvercountSql, allUnreadSql } from './all-unread-count.js';
import { countDrift, rebuild, rowDrift } from './doctor.js';
import { type StateChange, setFlag, upsertStates } from './entry-states.js';
import { isCjkTerm, pageMatches, parseSearchQuery, queryTests, walkSearchIndex } from './search.js';
import {
  channelFeedTitle,
  channelPage,
  FEED_COLUMNS,
  inChannel,
  isSaved,
  loadTimelineEntries,
  type ReadStateOf,
  refFromRow,
  timelineKeys,
} from './timeline.js';

// The reading side of the store: timelines with cursors, read and removed state per channel, the web
// reader's views across channels ("All unread", Saved, mark read with undo), full-text search (SQLite FTS5,
// PostgreSQL tsvector), unread counts, and the check of the kept reading state (`tidings doctor`).
// Mute and block rules (filters.ts) hide entries whose author URL or feed URL (or site URL) matches.

type Dialect = 'sqlite' | 'postgres';

const eb = expressionBuilder<Database, 'entries'>();

// The web reader's views across channels and feeds: per-feed unread counts, "All unread", and marking
// a selection read while returning what changed (for the "N entries marked read - Undo" notice).

/**
 * Entries some channel of the user shows and has not read yet, each once (the "All unread" view), as
 * channel_entries keys (page them with CHANNEL_KEYS): the shown, unread rows of the user's channels by
 * timeline order, read from their own index (migrations 0009, 0011), so that a page stops after the page however much is read. An entry's
 * rows all carry its sort_at, so an entry unread in several channels is one key.
 */
export function allUnreadKeys(
  db: Kysely<Database>,
  dialect: Dialect,
  userId: number,
): KeyQuery<'channel_entries'> {
  const no = flag(dialect, false);
  return db
    .selectFrom('channel_entries')
    .select(['channel_entries.entry_id as id', 'channel_entries.sort_at'])
    .distinct()
    .where('channel_entries.user_id', '=', userId)
    .where(
      sql<SqlBool>`channel_entries.is_read = ${no} AND channel_entries.is_removed = ${no} AND channel_entries.is_hidden = ${no}`,
    );
}

// The web reader's "Saved" view (issue 16): saved (starred) entries, the most recently saved first,
// whether a channel still follows their feed or not. Paged by (saved_at, entry_id) with the timeline's
// opaque cursors, so that a cursor tidings did not write is a StoreError 'invalid' (a 400).

const SAVED_KEYS: KeyColumns = { sortAt: 'saved_entries.saved_at', id: 'saved_entries.entry_id' };

function savedKeys(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('saved_entries')
    .select(['saved_entries.entry_id as id', 'saved_entries.saved_at as sort_at'])
    .where('saved_entries.user_id', '=', userId);
}

// Reading the kept counts: a sum over a channel's (channel, feed) rows, never over its entries.

/** SQL: the channel's unread count, the sum of its (channel, feed) rows (NULL when it has none). */
function channelUnread(outer: ExpressionBuilder<Database, 'channels'>) {
  return outer
    .selectFrom('unread_counts')
    .select((count) => count.fn.sum<number | string>('unread_counts.unread').as('unread'))
    .whereRef('unread_counts.channel_id', '=', 'channels.id')
    .as('unread');
}

/** The user's timelines, read state, views, search and counts: what the front ends read with. */
export class Reading extends StoreArea {
  /** Returns one page of a channel's timeline, newest first. */
  async timeline(query: TimelineQuery): Promise<TimelinePage> {
    if (!(await this.#mine(query.channelId))) return { entries: [] };
    const page = await timelineKeys(this.db, this.dialect, query);
    return this.#entriesOf(page, { channelId: query.channelId }, query.before);
  }

  /** A page of keys as a page of entries with the user's state (read as `readState` says). */
  async #entriesOf(
    page: KeyPage,
    readState: ReadStateOf,
    before?: string | undefined,
  ): Promise<TimelinePage> {
    const ids = page.keys.map((key) => key.id);
    const entries = await loadTimelineEntries(this.db, ids, readState, this.userId);
    return toPage(page, entries, before);
  }

  /**
   * The same page as `timeline`, by reference: state, feed and when each entry last changed, read with the
   * page's keys in one statement (this runs for every Microsub timeline request). The read state is
   * channel_entries' own, the one unread-only pages and the counts read.
   */
  async timelineRefs(query: TimelineQuery): Promise<TimelineRefPage> {
    if (!(await this.#mine(query.channelId))) return { refs: [] };
    const db = this.db;
    const dialect = this.dialect;
    const page = await channelPage(
      db,
      dialect,
      query,
      'timeline-refs',
      (keys) =>
        keys
          .innerJoin('entries', 'entries.id', 'channel_entries.entry_id')
          .innerJoin('feeds', 'feeds.id', 'entries.feed_id')
          .select([
            'entries.changed_at',
            'entries.feed_id',
            ...FEED_COLUMNS,
            channelFeedTitle(),
            'channel_entries.is_read',
            isSaved(this.userId).as('is_saved'),
          ]),
      [this.userId],
    );
    return { refs: page.keys.map(refFromRow), ...pageCursors(page, query.before) };
  }

  /**
   * Returns the entries with these ids that the channel has (of feeds it follows), in the order asked,
   * with their state in the channel.
   */
  async entriesById(channelId: number, ids: readonly number[]): Promise<TimelineEntry[]> {
    if (!(await this.#mine(channelId))) return [];
    const db = this.db;
    return loadTimelineEntries(db, [...new Set(ids)], { channelId }, this.userId, inChannel(channelId));
  }

  /**
   * True when the channel is the user's. Every method that takes a channel id asks it first: another
   * user's channel reads as empty and changes nothing. A channel never changes hands (and a deleted
   * channel's id is never given again), so a yes is kept for every store of the connection (Area.owners):
   * a channel found by channels.get costs no second query.
   */
  async #mine(channelId: number): Promise<boolean> {
    if (this.area.owners.isOwner(channelId, this.userId)) return true;
    const row = await this.db
      .selectFrom('channels')
      .select('id')
      .where('id', '=', channelId)
      .where('user_id', '=', this.userId)
      .executeTakeFirst();
    if (row === undefined) return false;
    this.area.owners.learn(channelId, this.userId);
    return true;
  }

  /** Marks entries read (or unread) in a channel. */
  markRead(channelId: number, entryIds: readonly number[], read: boolean, now: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
      if (!(await this.#mine(channelId))) return;
      return setFlag(db, dialect, entryIds, { channelId, flag: 'is_read', value: read, now });
    });
  }

  /**
   * Marks read the entry and every entry of the channel's feeds that sorts at or below it (by sort time,
   * then id), skipping those already read. An unknown entry changes nothing.
   */
  markReadUpTo(channelId: number, entryId: number, now: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
      if (!(await this.#mine(channelId))) return;
      const change: StateChange = { channelId, flag: 'is_read', value: true, now };
      await db.transaction().execute(async (trx) => {
        const target = await trx
          .selectFrom('entries')
          .select(['sort_at', 'id'])
          .where('id', '=', entryId)
          .executeTakeFirst();
        if (target === undefined) return;
        const upTo = { sortAt: target.sort_at, id: target.id };
        const entries = trx
          .selectFrom('entries')
          .innerJoin('subscriptions', 'subscriptions.feed_id', 'entries.feed_id')
          .where('subscriptions.channel_id', '=', channelId)
          .where(eb(eb.refTuple('entries.sort_at', 'entries.id'), '<=', eb.tuple(upTo.sortAt, upTo.id)))
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('entry_states')
                  .select('entry_states.entry_id')
                  .where('entry_states.channel_id', '=', channelId)
                  .whereRef('entry_states.entry_id', '=', 'entries.id')
                  .where('entry_states.is_read', '=', eb.lit(true)),
              ),
            ),
          );
        await upsertStates(trx, dialect, entries, change);
        await shown.setFlag(trx, dialect, channelId, { upTo }, change);
      });
    });
  }

  /** Hides entries from a channel's timeline. */
  removeEntries(channelId: number, entryIds: readonly number[], now: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
      if (!(await this.#mine(channelId))) return;
      return setFlag(db, dialect, entryIds, { channelId, flag: 'is_removed', value: true, now });
    });
  }

  /** Hides every stored entry of a feed from a channel's timeline. */
  removeFeedEntries(channelId: number, feedId: number, now: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
      if (!(await this.#mine(channelId))) return;
      const change: StateChange = { channelId, flag: 'is_removed', value: true, now };
      await db.transaction().execute(async (trx) => {
        await upsertStates(
          trx,
          dialect,
          trx.selectFrom('entries').where('entries.feed_id', '=', feedId),
          change,
        );
        await shown.setFlag(trx, dialect, channelId, { feedId }, change);
      });
    });
  }

  /** One page of "All unread", newest first, with the timeline's cursors. */
  async allUnread(query: UnreadQuery): Promise<TimelinePage> {
    const page = await pageKeys(() => allUnreadKeys(this.db, this.dialect, this.userId), query, CHANNEL_KEYS);
    return this.#entriesOf(page, { anyChannelOf: this.userId }, query.before);
  }

  /**
   * Marks read the unread entries a channel shows (of one feed, and/or at or below one entry by timeline
   * order) and returns their ids, so that exactly those can be marked unread again.
   */
  markReadReturningIds(
    channelId: number,
    scope: { feedId?: number | undefined; upToEntryId?: number | undefined },
    now: string,
  ): Promise<number[]> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
      if (!(await this.#mine(channelId))) return [];
      let query = channelEntryKeys(db, dialect, channelId, { feedId: scope.feedId, unreadOnly: true });
      if (scope.upToEntryId !== undefined) {
        const target = await db
          .selectFrom('entries')
          .select(['sort_at', 'id'])
          .where('id', '=', scope.upToEntryId)
          .executeTakeFirst();
        if (target === undefined) return [];
        query = query.where(
          sql<SqlBool>`(channel_entries.sort_at, channel_entries.entry_id) <= (${target.sort_at}, ${target.id})`,
        );
      }
      const ids = (await query.execute()).map((row) => row.id);
      await setFlag(db, dialect, ids, { channelId, flag: 'is_read', value: true, now });
      return ids;
    });
  }

  /** One page of the user's saved entries, most recently saved first; read when read in any channel. */
  async savedEntries(query: UnreadQuery): Promise<TimelinePage> {
    const page = await pageKeys(() => savedKeys(this.db, this.userId), query, SAVED_KEYS);
    return this.#entriesOf(page, { anyChannelOf: this.userId }, query.before);
  }

  /** The cursor of a saved entry's place in the Saved view (for its neighbours); undefined when not saved. */
  async savedCursor(entryId: number): Promise<string | undefined> {
    const db = this.db;
    const row = await db
      .selectFrom('saved_entries')
      .select(['entry_id', 'saved_at'])
      .where('user_id', '=', this.userId)
      .where('entry_id', '=', entryId)
      .executeTakeFirst();
    return row ? encodeCursor({ sortAt: row.saved_at, id: row.entry_id }) : undefined;
  }

  /** How many entries "All unread" lists: entries some channel of the user shows unread, each once. */
  async allUnreadCount(): Promise<number> {
    const row = await this.db
      .selectNoFrom(allUnreadSql(this.dialect, this.userId).as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Every channel's summary, as channelSummaries, and the All unread count, in one statement: the sum of
   * the channels' counts less what it counts twice (feeds several channels follow).
   */
  async overview(): Promise<{ channels: ChannelSummary[]; allUnread: number }> {
    const rows = await this.#summaries(true);
    const channels = rows.map(summaryOf);
    const counted = channels.reduce((sum, channel) => sum + channel.unread, 0);
    return { channels, allUnread: counted - Number(rows[0]?.all_unread ?? 0) };
  }

  /** Every channel's unread count, in channel order (0 for a channel without unread entries). */
  async unreadCounts(): Promise<ChannelCount[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('channels')
      .select((outer) => ['channels.id', channelUnread(outer)])
      .where('channels.user_id', '=', this.userId)
      .orderBy('channels.position')
      .orderBy('channels.id')
      .execute();
    return rows.map((row) => ({ channelId: row.id, unread: Number(row.unread ?? 0) }));
  }

  /**
   * Every channel in order with its unread count and how many feeds it follows, in one statement: the
   * reader's sidebar and Microsub's `channels` ask it on every request.
   */
  async channelSummaries(): Promise<ChannelSummary[]> {
    return (await this.#summaries(false)).map(summaryOf);
  }

  async #summaries(withAllUnread: boolean) {
    // compiled once per shape: building it was a sixth of a Microsub `channels` request (bench:serve)
    const key = `${this.dialect}:channel-summaries|all=${withAllUnread}`;
    const { rows } = await runTemplateOf(this.db, key, [this.userId], ([userId]) =>
      this.#summariesQuery(withAllUnread, userId as number),
    );
    return rows;
  }

  #summariesQuery(withAllUnread: boolean, userId: number) {
    return this.db
      .selectFrom('channels')
      .selectAll('channels')
      .select((outer) => [
        channelUnread(outer),
        outer
          .selectFrom('subscriptions')
          .select((count) => count.fn.countAll<number | string>().as('followed'))
          .whereRef('subscriptions.channel_id', '=', 'channels.id')
          .as('followed'),
        // uncorrelated: worked out once for the statement, however many channels
        (withAllUnread ? allUnreadOvercountSql(this.dialect, userId) : sql<number | string>`NULL`).as(
          'all_unread',
        ),
      ])
      .where('channels.user_id', '=', userId)
      .orderBy('channels.position')
      .orderBy('channels.id');
  }

  /**
   * Returns a page of the entries matching the query, newest first: in one channel's timeline, or in any
   * channel's (read when read in any channel). Removed, muted and blocked entries stay hidden.
   */
  async search(query: SearchQuery): Promise<TimelinePage> {
    const db = this.db;
    const dialect = this.dialect;
    const request = { limit: query.limit, after: query.after };
    const parsed = parseSearchQuery(query.query);
    const { channelId } = query;
    if (parsed.include.length === 0) return { entries: [] };
    if (channelId !== undefined && !(await this.#mine(channelId))) return { entries: [] };
    const page =
      dialect === 'sqlite' && parsed.include.some((term) => !isCjkTerm(term))
        ? await walkSearchIndex(db, parsed, { channelId, userId: this.userId }, request)
        : channelId === undefined
          ? await pageMatches(
              db,
              dialect,
              () => anyChannelEntryKeys(db, dialect, this.userId),
              queryTests(dialect, parsed, 'entries.id'),
              request,
              ENTRY_KEYS,
            )
          : await pageMatches(
              db,
              dialect,
              () => channelEntryKeys(db, dialect, channelId),
              queryTests(dialect, parsed, 'channel_entries.entry_id'),
              request,
              CHANNEL_KEYS,
            );
    const fitting = query.maxBytes === undefined ? page : await withinBytes(db, page, query.maxBytes);
    return this.#entriesOf(fitting, channelId === undefined ? { anyChannelOf: this.userId } : { channelId });
  }

  /**
   * Compares the kept rows and counts with the records; with `repair`, and only when something differs,
   * rebuilds them in one transaction and reports what it found.
   */
  async checkState(options: { repair: boolean }): Promise<ReadingStateReport> {
    const db = this.db;
    const dialect = this.dialect;
    const inspect = async (trx: Kysely<Database>) => ({
      ...(await rowDrift(trx, dialect)),
      countDrift: await countDrift(trx, dialect),
    });
    if (!options.repair) return { ...(await inspect(db)), repaired: false };
    return db.transaction().execute(async (trx) => {
      const found = await inspect(trx);
      const clean =
        found.missingRows === 0 &&
        found.strayRows === 0 &&
        found.wrongRows === 0 &&
        found.countDrift.length === 0;
      if (!clean) await rebuild(trx, dialect);
      return { ...found, repaired: !clean };
    });
  }
}

type SummaryRow = Parameters<typeof channelFromRow>[0] & {
  unread: number | string | null;
  followed: number | string | null;
};

function summaryOf(row: SummaryRow): ChannelSummary {
  return { ...channelFromRow(row), unread: Number(row.unread ?? 0), followed: Number(row.followed ?? 0) };
}

/**
 * The first keys of the page whose entries' stored sizes fit `maxBytes` (at least one), read before the
 * entries are: a page of a few very large entries must not be loaded whole (issue 22). A page cut short
 * has older entries.
 */
async function withinBytes(db: Kysely<Database>, page: KeyPage, maxBytes: number): Promise<KeyPage> {
  const sizes = await entrySizes(
    db,
    page.keys.map((key) => key.id),
  );
  let total = 0;
  let count = 0;
  for (const key of page.keys) {
    total += sizes.get(key.id) ?? 0;
    if (count > 0 && total > maxBytes) break;
    count++;
  }
  return count === page.keys.length ? page : { keys: page.keys.slice(0, count), hasOlder: true };
}
