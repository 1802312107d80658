import { type RawBuilder, sql } from 'kysely';

// SQLite's full-text index (FTS5) lists a word's entries in rowid order, and walks that order either
// way, from any rowid, fast. Its rowids are therefore not entry ids but search keys that sort the way the
// reader does, newest first: the minute of the entry's sort_at in the high bits, its id in the low 32.
// A search then reads the matching keys downwards from the page's cursor and stops after a page
// (search.ts), however many older entries hold the words. An entry's sort_at never changes once it is
// stored, and so neither does its key. Within one minute entries come in the order they arrived.

/** The low bits hold the entry id (ids below 2^32). */
const ID_BITS = 32;
/** Minutes from 1970, clamped to about 2,000 years either way, so that a key stays within 63 bits. */
const MINUTE_LIMIT = 2 ** 30;

/** An entry's search key (the FTS5 rowid of its text), from its sort_at and id. */
export function searchKey(sortAt: string, id: number): bigint {
  const ms = Date.parse(sortAt);
  // as SQLite's unixepoch(): whole seconds, rounded down; then whole minutes, rounded down
  const seconds = Number.isFinite(ms) ? Math.floor(ms / 1000) : 0;
  const minute = Math.min(Math.max(Math.floor(seconds / 60), -MINUTE_LIMIT), MINUTE_LIMIT - 1);
  return (BigInt(minute) << BigInt(ID_BITS)) | BigInt(id);
}

/**
 * The same key in SQL, for statements that find entries' keys in the database (deleting a feed's
 * index rows). Keep it in step with `searchKey` and with migration 0008, which wrote the keys of
 * entries stored before.
 */
export function searchKeySql(sortAtColumn: string, idColumn: string): RawBuilder<bigint> {
  const seconds = sql`coalesce(unixepoch(${sql.ref(sortAtColumn)}), 0)`;
  const minute = sql`((${seconds} - (${seconds} < 0) * 59) / 60)`;
  const clamped = sql`min(max(${minute}, ${-MINUTE_LIMIT}), ${MINUTE_LIMIT - 1})`;
  return sql<bigint>`((${clamped} << ${ID_BITS}) | ${sql.ref(idColumn)})`;
}

/** SQL: the entry id a search key (an FTS5 rowid) holds. */
export function entryIdOfKey(keyColumn: string): RawBuilder<number> {
  return sql<number>`(${sql.ref(keyColumn)} & ${2 ** ID_BITS - 1})`;
}
