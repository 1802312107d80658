import { type Kysely, type RawBuilder, sql } from 'kysely';
import { ALERT_GUID_PREFIX } from './notify/index.js';
import type { Database } from './schema.js';
import { chunk, statementChunks } from './values.js';

// What each channel shows of each entry of the feeds it follows (channel_entries), and the unread count
// of each (channel, feed) pair (unread_counts). Both are kept by the store's write methods, in the
// transaction of the write: every statement that changes a row says which rows it changed (RETURNING),
// and the counts move by exactly that much. `tidings doctor` recounts them (doctor.ts).
//
// An entry counts as unread in a channel when it is neither read, nor removed, nor hidden there.

type Dialect = 'sqlite' | 'postgres';
type Db = Kysely<Database>;

const ID_CHUNK = 500;

/** The rows a maintenance statement changed, as they are after the change. */
interface ChangedRow {
  channel_id: number;
  feed_id: number;
  is_read: number | boolean;
  is_removed: number | boolean;
  is_hidden: number | boolean;
}

/** A change of one (channel, feed) pair's unread count. */
export interface UnreadDelta {
  channelId: number;
  feedId: number;
  delta: number;
}

/** A boolean literal the partial indexes recognize: 0/1 on SQLite, false/true on PostgreSQL. */
export function flag(dialect: Dialect, value: boolean): RawBuilder<unknown> {
  if (dialect === 'sqlite') return sql.raw(value ? '1' : '0');
  return sql.raw(value ? 'true' : 'false');
}

function isSet(value: number | boolean): boolean {
  return value === true || value === 1;
}

function counts(row: Pick<ChangedRow, 'is_read' | 'is_removed' | 'is_hidden'>): boolean {
  return !isSet(row.is_read) && !isSet(row.is_removed) && !isSet(row.is_hidden);
}

/**
 * SQL: true when a rule of channel `channel` (or a global rule of its user `user`) names the entry, its
 * feed or its site.
 */
function filteredSql(
  entry: string,
  feed: string,
  channel: RawBuilder<unknown>,
  user: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const e = sql.ref(entry);
  const f = sql.ref(feed);
  return sql`EXISTS (SELECT 1 FROM filters WHERE filters.url IN (${e}.author_url, ${f}.url, ${f}.site_url) AND filters.user_id = ${user} AND COALESCE(filters.channel_id, 0) IN (0, ${channel}))`;
}

/** SQL: the entry is no alert entry (notify/alert-entries.ts): those go to notifications channels only. */
export function notAlert(entry: string): RawBuilder<unknown> {
  return sql`${sql.ref(`${entry}.guid`)} NOT LIKE ${`${ALERT_GUID_PREFIX}%`}`;
}

/**
 * Where a channel's rows come from: the feeds it follows (subscriptions), or the entries notify rules and
 * feed-health alerts put into a notifications channel (notified_entries).
 */
export type RowSource = 'followed' | 'notified';

/**
 * SQL: the rows channel_entries should hold for the records of `source` that `where` selects (on `e`, the
 * entry, and `x`, the source's row: a subscription or a notified entry), with read and removed state from
 * entry_states and hidden worked out now. The one definition of a row: the store's writes insert these, and
 * the doctor compares the table with them. Alert entries reach no channel that follows their feed.
 */
export function rowsOf(dialect: Dialect, source: RowSource, where: RawBuilder<unknown>): RawBuilder<unknown> {
  const no = flag(dialect, false);
  const from =
    source === 'followed'
      ? sql`FROM entries e JOIN subscriptions x ON x.feed_id = e.feed_id`
      : sql`FROM notified_entries x JOIN entries e ON e.id = x.entry_id`;
  const kept = source === 'followed' ? sql` AND ${notAlert('e')}` : sql``;
  return sql`SELECT x.channel_id, c.user_id, e.id AS entry_id, e.feed_id, e.sort_at,
      COALESCE(st.is_read, ${no}) AS is_read, COALESCE(st.is_removed, ${no}) AS is_removed,
      ${filteredSql('e', 'f', sql.ref('x.channel_id'), sql.ref('c.user_id'))} AS is_hidden
    ${from}
    JOIN channels c ON c.id = x.channel_id
    JOIN feeds f ON f.id = e.feed_id
    LEFT JOIN entry_states st ON st.channel_id = x.channel_id AND st.entry_id = e.id
    WHERE ${where}${kept}`;
}

/** Adds the rows `rowsOf` gives; rows that exist stay as they are. Returns the count changes. */
async function insertRows(
  db: Db,
  dialect: Dialect,
  source: RowSource,
  where: RawBuilder<unknown>,
): Promise<UnreadDelta[]> {
  const { rows } = await sql<ChangedRow>`
    INSERT INTO channel_entries (channel_id, user_id, entry_id, feed_id, sort_at, is_read, is_removed, is_hidden)
    ${rowsOf(dialect, source, where)}
    ON CONFLICT (channel_id, entry_id) DO NOTHING
    RETURNING channel_id, feed_id, is_read, is_removed, is_hidden`.execute(db);
  return rows.filter(counts).map((row) => ({ channelId: row.channel_id, feedId: row.feed_id, delta: 1 }));
}

/** Adds the notifications channels' rows of new entries that notify rules matched (polling.record). */
export async function addNotified(db: Db, dialect: Dialect, entryIds: readonly number[]): Promise<void> {
  const deltas: UnreadDelta[] = [];
  for (const part of statementChunks(dialect, entryIds, ID_CHUNK))
    deltas.push(...(await insertRows(db, dialect, 'notified', sql`x.entry_id IN (${sql.join(part)})`)));
  await applyDeltas(db, deltas);
}

/** Adds new entries to the channels that follow their feed (polling.record). */
export async function addEntries(db: Db, dialect: Dialect, entryIds: readonly number[]): Promise<void> {
  const deltas: UnreadDelta[] = [];
  for (const part of statementChunks(dialect, entryIds, ID_CHUNK))
    deltas.push(...(await insertRows(db, dialect, 'followed', sql`e.id IN (${sql.join(part)})`)));
  await applyDeltas(db, deltas);
}

/** Adds a feed's stored entries to a channel that now follows it (subscribe, move). */
export async function addSubscription(
  db: Db,
  dialect: Dialect,
  channelId: number,
  feedId: number,
): Promise<void> {
  const where = sql`e.feed_id = ${feedId} AND x.channel_id = ${channelId}`;
  await applyDeltas(db, await insertRows(db, dialect, 'followed', where));
}

/**
 * Gives a channel that now follows a feed the person follows elsewhere the read state they have there:
 * an entry read in any of their channels is read in this one too (the apps count an entry unread while
 * any folder shows it unread, so a folder added to a feed made its old entries unread everywhere).
 * Before addSubscription, which reads entry_states for the rows it adds.
 */
export async function carryReadState(
  db: Db,
  dialect: Dialect,
  userId: number,
  channelId: number,
  feedId: number,
  now: string,
): Promise<void> {
  const yes = flag(dialect, true);
  await sql`
    INSERT INTO entry_states (channel_id, entry_id, is_read, is_removed, updated_at)
    SELECT DISTINCT CAST(${channelId} AS BIGINT), st.entry_id, ${yes}, ${flag(dialect, false)}, CAST(${now} AS TEXT)
    FROM entry_states st
    JOIN channels c ON c.id = st.channel_id
    JOIN entries e ON e.id = st.entry_id
    WHERE c.user_id = ${userId} AND e.feed_id = ${feedId} AND st.is_read = ${yes} AND st.channel_id <> ${channelId}
    ON CONFLICT (channel_id, entry_id) DO NOTHING`.execute(db);
}

/** Adds every missing row of every channel, without counting (the doctor recounts after it). */
export async function insertMissingRows(db: Db, dialect: Dialect): Promise<void> {
  await insertRows(db, dialect, 'followed', sql`TRUE`);
  await insertRows(db, dialect, 'notified', sql`TRUE`);
}

/**
 * Drops a feed's rows and count from a channel that no longer follows it (unsubscribe, move); the rows of
 * entries a notify rule put there stay, counted again.
 */
export async function dropSubscription(
  db: Db,
  dialect: Dialect,
  channelId: number,
  feedId: number,
): Promise<void> {
  await db
    .deleteFrom('channel_entries')
    .where('channel_id', '=', channelId)
    .where('feed_id', '=', feedId)
    .execute();
  await db
    .deleteFrom('unread_counts')
    .where('channel_id', '=', channelId)
    .where('feed_id', '=', feedId)
    .execute();
  const where = sql`x.channel_id = ${channelId} AND e.feed_id = ${feedId}`;
  await applyDeltas(db, await insertRows(db, dialect, 'notified', where));
}

/** Which rows of a channel a flag change applies to: entries by id, one feed's, or up to a sort key. */
export type RowScope =
  | { entryIds: readonly number[] }
  | { feedId: number }
  | { upTo: { sortAt: string; id: number } };

/** Sets is_read or is_removed on the channel's rows in `scope` whose flag differs, counting the change. */
export async function setFlag(
  db: Db,
  dialect: Dialect,
  channelId: number,
  scope: RowScope,
  change: { flag: 'is_read' | 'is_removed'; value: boolean },
): Promise<number[]> {
  const column = sql.ref(change.flag);
  const run = async (where: RawBuilder<unknown>) => {
    const { rows } = await sql<ChangedRow & { entry_id: number }>`
      UPDATE channel_entries SET ${column} = ${flag(dialect, change.value)}
      WHERE channel_id = ${channelId} AND ${column} = ${flag(dialect, !change.value)} AND ${where}
      RETURNING entry_id, channel_id, feed_id, is_read, is_removed, is_hidden`.execute(db);
    return rows;
  };
  const changed: (ChangedRow & { entry_id: number })[] = [];
  if ('entryIds' in scope) {
    for (const part of chunk(scope.entryIds, ID_CHUNK))
      changed.push(...(await run(sql`entry_id IN (${sql.join(part)})`)));
  } else if ('feedId' in scope) {
    changed.push(...(await run(sql`feed_id = ${scope.feedId}`)));
  } else {
    changed.push(...(await run(sql`(sort_at, entry_id) <= (${scope.upTo.sortAt}, ${scope.upTo.id})`)));
  }
  const deltas = changed.map((row) => {
    const before = { ...row, [change.flag]: !isSet(row[change.flag]) };
    return {
      channelId: row.channel_id,
      feedId: row.feed_id,
      delta: Number(counts(row)) - Number(counts(before)),
    };
  });
  await applyDeltas(db, deltas);
  return changed.map((row) => row.entry_id);
}

/** Which rows a hidden-state refresh looks at. */
export type HiddenScope =
  | { ruleUrl: string; userId: number; channelId?: number | undefined }
  | { feedId: number }
  | { entryIds: readonly number[] };

/**
 * Works is_hidden out again for the rows in `scope` (a rule added or removed, a feed's URLs or an entry's
 * author changed), counting the rows whose state flips.
 */
export async function refreshHidden(db: Db, scope: HiddenScope): Promise<void> {
  const hidden = sql`EXISTS (SELECT 1 FROM entries e JOIN feeds f ON f.id = e.feed_id WHERE e.id = channel_entries.entry_id AND ${filteredSql('e', 'f', sql.ref('channel_entries.channel_id'), sql.ref('channel_entries.user_id'))})`;
  const run = async (where: RawBuilder<unknown>) => {
    const { rows } = await sql<ChangedRow>`
      UPDATE channel_entries SET is_hidden = NOT is_hidden
      WHERE ${where} AND is_hidden <> ${hidden}
      RETURNING channel_id, feed_id, is_read, is_removed, is_hidden`.execute(db);
    return rows;
  };
  const changed: ChangedRow[] = [];
  if ('ruleUrl' in scope) {
    // Two statements, each on its own index: an OR of both made SQLite read every row.
    const url = scope.ruleUrl;
    // a rule is its user's: a global one reaches every channel of that user, and no one else's
    const inChannel =
      scope.channelId === undefined ? sql`user_id = ${scope.userId}` : sql`channel_id = ${scope.channelId}`;
    const feeds = await db
      .selectFrom('feeds')
      .select('id')
      .where((eb) => eb.or([eb('url', '=', url), eb('site_url', '=', url)]))
      .execute();
    for (const feed of feeds) changed.push(...(await run(sql`${inChannel} AND feed_id = ${feed.id}`)));
    changed.push(
      ...(await run(sql`${inChannel} AND entry_id IN (SELECT id FROM entries WHERE author_url = ${url})`)),
    );
  } else if ('feedId' in scope) {
    changed.push(...(await run(sql`feed_id = ${scope.feedId}`)));
  } else {
    for (const part of chunk(scope.entryIds, ID_CHUNK))
      changed.push(...(await run(sql`entry_id IN (${sql.join(part)})`)));
  }
  const deltas = changed
    .filter((row) => !isSet(row.is_read) && !isSet(row.is_removed))
    .map((row) => ({ channelId: row.channel_id, feedId: row.feed_id, delta: isSet(row.is_hidden) ? -1 : 1 }));
  await applyDeltas(db, deltas);
}

/**
 * Adds the deltas to the counts, one statement per run of pairs. Pairs are summed first and written in
 * (channel, feed) order, so that two PostgreSQL transactions lock the count rows they share in the same
 * order and cannot deadlock on them.
 */
export async function applyDeltas(db: Db, deltas: readonly UnreadDelta[]): Promise<void> {
  const sums = new Map<string, UnreadDelta>();
  for (const { channelId, feedId, delta } of deltas) {
    const key = `${channelId}:${feedId}`;
    const sum = sums.get(key);
    if (sum) sum.delta += delta;
    else sums.set(key, { channelId, feedId, delta });
  }
  const rows = [...sums.values()]
    .filter((sum) => sum.delta !== 0)
    .sort((a, b) => a.channelId - b.channelId || a.feedId - b.feedId)
    .map((sum) => ({ channel_id: sum.channelId, feed_id: sum.feedId, unread: sum.delta }));
  for (const part of chunk(rows, ID_CHUNK))
    await db
      .insertInto('unread_counts')
      .values(part)
      .onConflict((conflict) =>
        conflict.columns(['channel_id', 'feed_id']).doUpdateSet((update) => ({
          unread: sql`unread_counts.unread + ${update.ref('excluded.unread')}`,
        })),
      )
      .execute();
}

/**
 * PostgreSQL: locks the feed's row until the transaction ends. polling.record updates that row first, so a
 * subscription change and a poll of the same feed take turns, and each sees the other's rows (READ
 * COMMITTED): neither writes channel_entries from a stale list of entries or subscriptions. SQLite has
 * one writer at a time already.
 */
export async function lockFeed(db: Db, dialect: Dialect, feedId: number): Promise<void> {
  if (dialect === 'postgres')
    await db.selectFrom('feeds').select('id').where('id', '=', feedId).forUpdate().execute();
}

/**
 * PostgreSQL: a poll works out is_hidden from the rules it sees, and a rule change from the rows it sees;
 * run at once, each would miss the other's uncommitted work. Polls hold this lock shared, rule changes
 * exclusive, until their transaction ends, so a rule change waits for the polls under way and the polls
 * after it see the rule. SQLite has one writer at a time already.
 */
export async function lockRules(db: Db, dialect: Dialect, mode: 'shared' | 'exclusive'): Promise<void> {
  if (dialect !== 'postgres') return;
  const lock = mode === 'shared' ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
  // one key per schema: stores in other schemas of the database (the tests') never wait on each other
  await sql`SELECT ${lock}(hashtextextended('tidings rules ' || coalesce(current_schema(), ''), 0))`.execute(
    db,
  );
}
