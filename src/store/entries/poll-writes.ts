import {
  CompiledQuery,
  type ExpressionBuilder,
  type InsertObject,
  type Transaction,
  type Updateable,
  type UpdateObject,
} from 'kysely';
import * as shown from '../channel-entries.js';
import { entryContentColumns, heartbeatRow, newEntryRow, searchTextOf } from '../entry-rows.js';
import { writeFeedAlerts } from '../notify/index.js';
import { insertUniform, runTemplate } from '../query-template.js';
import { feedColumnPgType, feedPatchToRow, namesFeed } from '../rows.js';
import { applyRules } from '../rules/index.js';
import type { Database, FeedTable } from '../schema.js';
import { clip, type IndexedText, writeSearchIndex } from '../search-index.js';
import { tsvectorLiteral } from '../search-words.js';
import type { PollHealth, PollOutcome } from '../types.js';
import { chunk, statementChunks, toIso } from '../values.js';

// SQLite allows 32766 bound variables per statement (since 3.32); PostgreSQL 65535. 500 guids, or
// 500 entries of 21 columns (on SQLite at most 256, see statementChunks), stay below both.
export const GUID_CHUNK = 500;
const ENTRY_CHUNK = 500;
/** Values bound by one statement of many feeds' patches: well under PostgreSQL's 65,535. */
const PATCH_VALUES = 30_000;

type Dialect = 'sqlite' | 'postgres';
type EntryRow = InsertObject<Database, 'entries'>;
type EntryChange = { id: number; columns: UpdateObject<Database, 'entries'>; text: string };

/** What polling.record writes, built before any transaction opens. */
export interface PollRows {
  feedId: number;
  workerId: string;
  newRows: EntryRow[];
  newTexts: Map<string, string>;
  changes: EntryChange[];
  feedPatch: Updateable<FeedTable>;
  heartbeat: ReturnType<typeof heartbeatRow>;
  /** The poll's time. */
  at: string;
  health: PollHealth | undefined;
}

/** The ids of the entries one poll inserted and updated. */
export interface PollWritten {
  insertedIds: number[];
  updatedIds: number[];
}

/**
 * Builds every row of one poll. It runs before any transaction opens, so that a bad timestamp fails
 * the call with nothing written.
 */
export function pollRows(dialect: Dialect, outcome: PollOutcome): PollRows {
  const now = toIso(outcome.now, 'now');
  return {
    feedId: outcome.feedId,
    workerId: outcome.workerId,
    newRows: outcome.newEntries.map((entry) => {
      const row = newEntryRow(outcome.feedId, entry, now);
      if (dialect === 'postgres') row.search_vector = tsvectorLiteral(clip(searchTextOf(entry)));
      return row;
    }),
    // SQLite's FTS5 rows are written apart, once the entries have their ids
    newTexts: new Map(
      dialect === 'sqlite' ? outcome.newEntries.map((entry) => [entry.guid, searchTextOf(entry)]) : [],
    ),
    changes: outcome.changedEntries.map((entry) => entryChange(dialect, entry, now)),
    feedPatch: feedPatchToRow(outcome.feedPatch, dialect),
    heartbeat: heartbeatRow(outcome.feedId, outcome.heartbeat),
    at: now,
    health: outcome.health,
  };
}

/** Writes one poll's rows inside a transaction the caller holds. */
export async function writePoll(
  trx: Transaction<Database>,
  dialect: Dialect,
  rows: PollRows,
): Promise<PollWritten> {
  return (await writePolls(trx, dialect, [rows]))[0] as PollWritten;
}

/**
 * Writes the rows of several polls of different feeds inside a transaction the caller holds (a group
 * commit), each step in one statement for all of them where it can: per statement, a first poll round
 * paid more than for its rows, PostgreSQL most of all (issue 22). Returns each poll's entry ids.
 */
export async function writePolls(
  trx: Transaction<Database>,
  dialect: Dialect,
  batch: readonly PollRows[],
): Promise<PollWritten[]> {
  await shown.lockRules(trx, dialect, 'shared');
  const checked = batch.filter((rows) => namesFeed(rows.feedPatch) || rows.changes.length > 0);
  const befores = await feedUrls(
    trx,
    checked.map((rows) => rows.feedId),
  );
  // The feed was removed while it was being polled: there is nothing to attach the results to.
  const patched = await patchPolledFeeds(trx, dialect, batch);
  const live = batch.filter((rows) => patched.has(rows.feedId));
  const newRows = await withoutRemoved(
    trx,
    dialect,
    live.flatMap((rows) => rows.newRows),
  );
  const texts = new Map(live.map((rows) => [rows.feedId, rows.newTexts]));
  const textOf = (feedId: number, guid: string) => texts.get(feedId)?.get(guid) ?? '';
  const inserted = await insertEntries(trx, dialect, newRows);
  const insertedTexts = inserted.map(({ id, guid, sort_at, feed_id }) => ({
    id,
    sortAt: sort_at,
    text: textOf(feed_id, guid),
  }));
  await writeSearchIndex(trx, dialect, insertedTexts, { replace: false });
  // rules test the entries through the search index just written, and write the read and removed state
  // that the channels' rows copy: the kept counts are right from the start
  // (a group commit's polls end within milliseconds of each other: the first one's time stands for all)
  const notified = live[0] === undefined ? 0 : await applyRules(trx, dialect, inserted, newRows, live[0].at);
  const newIds = inserted.map((row) => row.id);
  await shown.addEntries(trx, dialect, newIds);
  if (notified > 0) await shown.addNotified(trx, dialect, newIds);
  const written = new Map<number, PollWritten>();
  for (const rows of live) {
    const updated = await updateEntries(trx, rows.feedId, rows.changes);
    await writeSearchIndex(trx, dialect, updated, { replace: true });
    await hideAgain(trx, rows, befores.get(rows.feedId), updated);
    const insertedIds = inserted.filter((row) => row.feed_id === rows.feedId).map((row) => row.id);
    written.set(rows.feedId, { insertedIds, updatedIds: updated.map((row) => row.id) });
  }
  // the alerts a poll causes are queued with it: sent once this commits, never when it rolls back
  const { alertEntryIds } = await writeFeedAlerts(
    trx,
    live.flatMap((rows) =>
      rows.health === undefined ? [] : [{ feedId: rows.feedId, at: rows.at, health: rows.health }],
    ),
  );
  if (alertEntryIds.length > 0) await shown.addNotified(trx, dialect, alertEntryIds);
  const heartbeats = live.map((rows) => rows.heartbeat);
  await insertUniform(trx, `${dialect}:heartbeats`, heartbeats, (values) =>
    trx.insertInto('heartbeats').values(values as typeof heartbeats),
  );
  return batch.map((rows) => written.get(rows.feedId) ?? { insertedIds: [], updatedIds: [] });
}

/**
 * A changed entry may name another author; a moved feed another URL: mute and block rules may differ.
 * Without any rule nothing is hidden, nor can be (the rules' lock keeps a new one out meanwhile).
 */
async function hideAgain(
  trx: Transaction<Database>,
  rows: PollRows,
  before: (FeedUrls & { hasRules: boolean }) | undefined,
  updated: readonly IndexedText[],
): Promise<void> {
  if (!before?.hasRules) return;
  const moved = namesFeed(rows.feedPatch) && urlsOf(before) !== urlsOf(patched(before, rows.feedPatch));
  if (moved) await shown.refreshHidden(trx, { feedId: rows.feedId });
  else if (updated.length > 0) await shown.refreshHidden(trx, { entryIds: updated.map((row) => row.id) });
}

/** A feed's URLs as the mute and block rules see them. */
type FeedUrls = { url: string | undefined; site_url: string | null | undefined };

/**
 * The feeds' URL and site URL before the polls' patches, and whether any mute or block rule exists, in
 * one statement (issue 22: two reads of the URLs and a refresh of the hidden state made every first poll
 * slower, with no rule to apply).
 */
async function feedUrls(
  trx: Transaction<Database>,
  feedIds: readonly number[],
): Promise<Map<number, FeedUrls & { hasRules: boolean }>> {
  const found = new Map<number, FeedUrls & { hasRules: boolean }>();
  for (const part of chunk(feedIds, GUID_CHUNK)) {
    const rows = await trx
      .selectFrom('feeds')
      .select(['id', 'url', 'site_url'])
      .select((eb) => eb.exists(eb.selectFrom('filters').select('filters.id')).as('has_rules'))
      .where('id', 'in', part)
      .execute();
    for (const row of rows) {
      const hasRules = row.has_rules === true || Number(row.has_rules) === 1;
      found.set(row.id, { url: row.url, site_url: row.site_url, hasRules });
    }
  }
  return found;
}

/** The URLs after the patch: those it sets, else those of before. */
function patched(before: FeedUrls, patch: Updateable<FeedTable>): FeedUrls {
  return {
    url: 'url' in patch ? (patch.url as string | undefined) : before.url,
    site_url: 'site_url' in patch ? patch.site_url : before.site_url,
  };
}

function urlsOf(urls: FeedUrls): string {
  return JSON.stringify([urls.url, urls.site_url ?? null]);
}

/**
 * The new rows whose guid retention has not removed from their feed: a removed entry that is still in the
 * feed's document must not come back as new.
 */
async function withoutRemoved(
  trx: Transaction<Database>,
  dialect: Dialect,
  rows: EntryRow[],
): Promise<EntryRow[]> {
  if (rows.length === 0) return rows;
  const feedIds = [...new Set(rows.map((row) => row.feed_id as number))];
  const removed = new Set<string>();
  // of few shapes on SQLite, as few statements as can be on PostgreSQL (statementChunks)
  for (const part of statementChunks(
    dialect,
    rows.map((row) => row.guid as string),
    GUID_CHUNK,
  )) {
    const found = await trx
      .selectFrom('removed_guids')
      .select(['feed_id', 'guid'])
      .where('feed_id', 'in', feedIds)
      .where('guid', 'in', part)
      .execute();
    for (const row of found) removed.add(`${row.feed_id} ${row.guid}`);
  }
  return removed.size === 0 ? rows : rows.filter((row) => !removed.has(`${row.feed_id} ${row.guid}`));
}

/**
 * The update of a changed entry. It keeps when the entry was published and where it sits in timelines:
 * an edited post does not jump back to the top.
 */
function entryChange(
  dialect: Dialect,
  entry: PollOutcome['changedEntries'][number],
  now: string,
): EntryChange {
  const { published: _published, sort_at: _sortAt, ...columns } = entryContentColumns(entry);
  const text = searchTextOf(entry);
  const vector = dialect === 'postgres' ? { search_vector: tsvectorLiteral(clip(text)) } : {};
  return {
    id: entry.id,
    columns: { ...columns, ...vector, changed_at: now },
    text,
  };
}

/**
 * Patches each polled feed and drops the lease of the worker that polled it; returns the feeds that
 * still exist. On PostgreSQL the feeds whose patches set the same columns go in one statement (issue 22:
 * a statement per feed was a third of a poll round's statements, each parsed and planned), which locks
 * their rows as patchPolledFeed does; SQLite's statements cost little, one per feed.
 */
async function patchPolledFeeds(
  trx: Transaction<Database>,
  dialect: Dialect,
  batch: readonly PollRows[],
): Promise<Set<number>> {
  const live = new Set<number>();
  const groups = new Map<string, PollRows[]>();
  for (const rows of batch) {
    const key = Object.keys(rows.feedPatch).join(',');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [rows]);
    else group.push(rows);
  }
  for (const group of groups.values()) {
    const columns = Object.keys((group[0] as PollRows).feedPatch);
    const types = columns.map(feedColumnPgType);
    const together = dialect === 'postgres' && group.length > 1 && types.every((type) => type !== undefined);
    if (!together) {
      for (const rows of group)
        if (await patchPolledFeed(trx, dialect, rows.feedId, rows.workerId, rows.feedPatch))
          live.add(rows.feedId);
      continue;
    }
    // sorted by id, so that two such statements lock feeds in one order
    const ordered = [...group].sort((a, b) => a.feedId - b.feedId);
    for (const part of chunk(ordered, Math.floor(PATCH_VALUES / (columns.length + 2)))) {
      const values: unknown[] = [];
      const tuples = part.map((rows) => {
        const first = values.length + 1;
        values.push(rows.feedId, rows.workerId);
        for (const column of columns) values.push(rows.feedPatch[column as keyof typeof rows.feedPatch]);
        const casts = ['bigint', 'text', ...(types as string[])].map((type, at) => `$${first + at}::${type}`);
        return `(${casts.join(', ')})`;
      });
      const names = columns.map((column) => `"${column}"`);
      const text = [
        `UPDATE feeds AS f SET ${names.map((name) => `${name} = v.${name}`).join(', ')},`,
        'lease_owner = CASE WHEN f.lease_owner = v.worker THEN NULL ELSE f.lease_owner END,',
        'lease_expires_at = CASE WHEN f.lease_owner = v.worker THEN NULL ELSE f.lease_expires_at END',
        `FROM (VALUES ${tuples.join(', ')}) AS v(id, worker, ${names.join(', ')})`,
        'WHERE f.id = v.id RETURNING f.id',
      ].join(' ');
      const result = await trx.executeQuery<{ id: number | string }>(CompiledQuery.raw(text, values));
      for (const row of result.rows) live.add(Number(row.id));
    }
  }
  return live;
}

/**
 * Patches the polled feed and drops the worker's lease (not another worker's, should the lease have
 * expired and moved on). Returns false when the feed is gone. Updating first also locks the feed's row
 * on PostgreSQL, so a concurrent feeds.remove waits instead of breaking the entry inserts. The statement is
 * compiled once per set of patched columns (query-template.ts): building it with Kysely for every poll
 * cost a third of a millisecond of the main thread.
 */
async function patchPolledFeed(
  trx: Transaction<Database>,
  dialect: Dialect,
  feedId: number,
  workerId: string,
  patch: Updateable<FeedTable>,
): Promise<boolean> {
  const columns = Object.keys(patch) as (keyof typeof patch)[];
  const values = [...columns.map((column) => patch[column]), workerId, workerId, feedId];
  const result = await runTemplate(trx, `${dialect}:feed-patch|${columns.join(',')}`, values, () =>
    trx
      .updateTable('feeds')
      .set(patch)
      .set((eb) => ({
        lease_owner: clearedIfOurs(eb, workerId, 'lease_owner'),
        lease_expires_at: clearedIfOurs(eb, workerId, 'lease_expires_at'),
      }))
      .where('id', '=', feedId),
  );
  return (result.numAffectedRows ?? 0n) > 0n;
}

/** `column`, set to NULL when the lease is the worker's own: both lease columns go together or not at all. */
function clearedIfOurs(
  eb: ExpressionBuilder<Database, 'feeds'>,
  workerId: string,
  column: 'lease_owner' | 'lease_expires_at',
) {
  return eb.case().when('lease_owner', '=', workerId).then(null).else(eb.ref(column)).end();
}

/** An entry row written: what the poll's other steps need of it. */
type InsertedEntry = { id: number; guid: string; sort_at: string; feed_id: number };

/**
 * Inserts entries and returns the id, guid and feed of each row written; a guid already stored for the
 * feed (another process won the race) is skipped. On PostgreSQL each row carries its tsvector as text
 * (search-words.ts), a plain value like the others, so that the statement of a number of rows is built
 * and compiled once (query-template.ts): built anew for each batch of 500 rows, it cost PostgreSQL
 * workers more of their thread than their queries did (issue 22).
 */
async function insertEntries(
  trx: Transaction<Database>,
  dialect: Dialect,
  rows: EntryRow[],
): Promise<InsertedEntry[]> {
  const inserted: InsertedEntry[] = [];
  for (const part of statementChunks(dialect, rows, ENTRY_CHUNK)) {
    const written = await insertUniform(trx, `${dialect}:entries`, part, (values) =>
      trx
        .insertInto('entries')
        .values(values as EntryRow[])
        .onConflict((conflict) => conflict.columns(['feed_id', 'guid']).doNothing())
        .returning(['id', 'guid', 'sort_at', 'feed_id']),
    );
    inserted.push(...written);
  }
  return inserted;
}

/**
 * Rewrites changed entries' content and returns those of the feed that exist; first-seen time, guid and
 * per-channel read state stay as they were.
 */
async function updateEntries(
  trx: Transaction<Database>,
  feedId: number,
  changes: EntryChange[],
): Promise<IndexedText[]> {
  const updated: IndexedText[] = [];
  for (const change of changes) {
    const row = await trx
      .updateTable('entries')
      .set(change.columns)
      .where('id', '=', change.id)
      .where('feed_id', '=', feedId)
      .returning('sort_at')
      .executeTakeFirst();
    if (row !== undefined) updated.push({ id: change.id, sortAt: row.sort_at, text: change.text });
  }
  return updated;
}
