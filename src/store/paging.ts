import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { decodeCursor, encodeCursor, type SortKey } from './cursor.js';
import { type Executor, runTemplate } from './query-template.js';
import type { Database } from './schema.js';
import { StoreError } from './store-error.js';
import type { TimelineEntry, TimelinePage } from './types.js';
import { rowCount } from './values.js';

/** The most entries one page returns; a larger limit is read as this. */
export const MAX_PAGE_SIZE = 500;

/**
 * The columns a page query sorts by: entries' own (sort_at, id), or channel_entries' (sort_at, entry_id).
 * The query selects them as `sort_at` and `id`.
 */
export interface KeyColumns {
  sortAt: string;
  id: string;
}

export const ENTRY_KEYS: KeyColumns = { sortAt: 'entries.sort_at', id: 'entries.id' };

/** True for rows that sort below (older than) `key`. */
function olderThan(columns: KeyColumns, key: SortKey): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(columns.sortAt)}, ${sql.ref(columns.id)}) < (${key.sortAt}, ${key.id})`;
}

/** True for rows that sort above (newer than) `key`. */
function newerThan(columns: KeyColumns, key: SortKey): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(columns.sortAt)}, ${sql.ref(columns.id)}) > (${key.sortAt}, ${key.id})`;
}

export interface PageRequest {
  limit: number;
  before?: string | undefined;
  after?: string | undefined;
}

/** The key columns every page row has. */
export interface KeyRow {
  id: number;
  sort_at: string;
}

/** The entry keys a page query selects (and, for some, more columns: R). */
export type KeyQuery<TB extends keyof Database, R extends KeyRow = KeyRow> = SelectQueryBuilder<
  Database,
  TB,
  R
>;

/** The keys of one page (rows that may carry more columns), newest first, and whether older entries remain below it. */
export interface KeyPage<R extends KeyRow = KeyRow> {
  keys: R[];
  hasOlder: boolean;
}

/**
 * A page query whose SQL is compiled once for each shape and kept (query-template.ts): `key` names
 * everything that shapes the query `pageKeys` is given (dialect, statement, optional conditions), and
 * `values` are its bound values in order. Building and compiling the timeline's page query with Kysely
 * was a tenth of a Microsub timeline request's time (bench:serve).
 */
export interface PageTemplate {
  db: Executor;
  key: string;
  values: readonly unknown[];
}

/** The page size asked for, checked and capped at MAX_PAGE_SIZE. */
export function pageSize(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1)
    throw new StoreError('invalid', `store: a page limit must be a positive integer, not ${limit}`);
  return Math.min(limit, MAX_PAGE_SIZE);
}

/**
 * Runs keyset paging over the entries `query` selects (a fresh builder on each call). `after` reads down
 * from the cursor, fetching one entry more than the page to learn whether older ones remain; `before`
 * reads up from it (the entries just newer than the cursor, closest first) and then asks whether anything
 * older than the page remains.
 */
export async function pageKeys<TB extends keyof Database, R extends KeyRow = KeyRow>(
  query: () => KeyQuery<TB, R>,
  request: PageRequest,
  columns: KeyColumns = ENTRY_KEYS,
  template?: PageTemplate,
): Promise<KeyPage<R>> {
  const limit = pageSize(request.limit);
  if (request.before !== undefined && request.after !== undefined)
    throw new StoreError('invalid', 'store: a page takes either before or after, not both');
  // each shape of page query (with its row count, written into the SQL), with the values it binds after
  // the query's own
  const run = async (
    shape: string,
    count: number,
    values: unknown[],
    build: () => KeyQuery<TB, R>,
  ): Promise<R[]> => {
    if (template === undefined) return build().execute();
    const key = `${template.key}|${shape}|${count}`;
    return (await runTemplate<R>(template.db, key, [...template.values, ...values], build)).rows;
  };
  if (request.before !== undefined) {
    const cursor = decodeCursor(request.before);
    const rows = await run('before', limit, [cursor.sortAt, cursor.id], () =>
      query()
        .where(newerThan(columns, cursor))
        .orderBy(sql.ref(columns.sortAt), 'asc')
        .orderBy(sql.ref(columns.id), 'asc')
        .limit(rowCount(limit)),
    );
    const keys = rows.reverse();
    const oldest = keys.at(-1);
    if (oldest === undefined) return { keys, hasOlder: false };
    const below = await run('older', 1, [oldest.sort_at, oldest.id], () =>
      newestFirst(query().where(olderThan(columns, keyOf(oldest))), columns, 1),
    );
    return { keys, hasOlder: below.length > 0 };
  }
  let rows: R[];
  if (request.after === undefined) {
    rows = await run('first', limit + 1, [], () => newestFirst(query(), columns, limit + 1));
  } else {
    const cursor = decodeCursor(request.after);
    rows = await run('older', limit + 1, [cursor.sortAt, cursor.id], () =>
      newestFirst(query().where(olderThan(columns, cursor)), columns, limit + 1),
    );
  }
  return { keys: rows.slice(0, limit), hasOlder: rows.length > limit };
}

/** The query's rows newest first, at most `limit`. */
function newestFirst<TB extends keyof Database, R extends KeyRow>(
  query: KeyQuery<TB, R>,
  columns: KeyColumns,
  limit: number,
): KeyQuery<TB, R> {
  return query
    .orderBy(sql.ref(columns.sortAt), 'desc')
    .orderBy(sql.ref(columns.id), 'desc')
    .limit(rowCount(limit));
}

function keyOf(row: KeyRow): SortKey {
  return { sortAt: row.sort_at, id: row.id };
}

/**
 * The page for these keys and their entries: `before` whenever it has entries (for an empty page read
 * `before` a cursor, that same cursor, so a client polling for news can keep asking), `after` exactly
 * when older entries remain.
 */
export function toPage(page: KeyPage, entries: TimelineEntry[], askedBefore?: string): TimelinePage {
  return { entries, ...pageCursors(page, askedBefore) };
}

/** The cursors of a page, as toPage gives them. */
export function pageCursors(
  page: KeyPage<KeyRow>,
  askedBefore?: string,
): { before?: string; after?: string } {
  const first = page.keys[0];
  const last = page.keys.at(-1);
  const before = first === undefined ? askedBefore : encodeCursor(keyOf(first));
  return {
    ...(before === undefined ? {} : { before }),
    ...(page.hasOlder && last !== undefined ? { after: encodeCursor(keyOf(last)) } : {}),
  };
}
