import { type RawBuilder, sql } from 'kysely';
import type { DbBool } from './schema.js';
import { StoreError } from './store-error.js';

// A timestamp written as `toISOString` writes it, or as the parser writes it (without milliseconds),
// with a day that every month has and an hour before 24 (V8 reads 2024-02-30 as March 1st, so later
// days take the long way). A poll of 25,000 entries spent 0.2 s rewriting such timestamps (bench:poll).
const CANONICAL_ISO =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{3})?Z$/;

/** The timestamp as `toISOString` writes it, so that stored times compare as text. */
export function toIso(value: string, field: string): string {
  if (CANONICAL_ISO.test(value)) return value.length === 24 ? value : `${value.slice(0, 19)}.000Z`;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new StoreError('invalid', `store: ${field} is not a timestamp: ${value}`);
  return time.toISOString();
}

/** `toIso` for optional fields: null stays null. */
export function toIsoOrNull(value: string | null | undefined, field: string): string | null {
  return value === null || value === undefined ? null : toIso(value, field);
}

/** A stored boolean (0/1 from SQLite, true/false from PostgreSQL) as a boolean. */
export function fromDbBool(value: DbBool): boolean {
  return value === true || value === 1;
}

/** A boolean as the database stores it: 0/1 for SQLite (which cannot bind booleans), true/false for PostgreSQL. */
export function toDbBool(value: boolean, dialect: 'sqlite' | 'postgres'): DbBool {
  if (dialect === 'postgres') return value;
  return value ? 1 : 0;
}

/** Parses a JSON column; a damaged value yields `fallback` rather than an unreadable row. */
export function fromJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** `items` cut into runs of at most `size`, to keep each statement under the bound-variable limits. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * The items in chunks whose sizes are powers of two, at most `max` (425 items, max 256: 256, 128, 32, 8
 * and 1), so that a statement of one chunk comes in few shapes: each shape is compiled and kept prepared
 * (query-template.ts, the SQLite statement cache), and a group commit's batches of any size made as
 * many shapes, tens of megabytes of prepared statements (issue 22).
 */
export function binaryChunks<T>(items: readonly T[], max: number): T[][] {
  const chunks: T[][] = [];
  let size = 1;
  while (size * 2 <= max) size *= 2;
  for (let i = 0; i < items.length; ) {
    while (size > items.length - i) size /= 2;
    chunks.push(items.slice(i, i + size));
    i += size;
  }
  return chunks;
}

/**
 * Chunks of rows for one statement each: of few sizes on SQLite, whose statements are kept prepared
 * (binaryChunks); as large as allowed on PostgreSQL, which prepares none of them and pays for each
 * statement more than for its rows.
 */
export function statementChunks<T>(dialect: 'sqlite' | 'postgres', items: readonly T[], max: number): T[][] {
  return dialect === 'sqlite' ? binaryChunks(items, max) : chunk(items, max);
}

/**
 * A row count (LIMIT, OFFSET) written into the SQL rather than bound. SQLite's planner reads a bound
 * LIMIT's value, so a statement with `limit ?` is prepared again at every run, however often it ran
 * before: a third of a timeline page's query time (bench:serve). Each count is its own statement text.
 */
export function rowCount(count: number): RawBuilder<number> {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new StoreError('invalid', `store: a row count must be a whole number, not ${count}`);
  return sql.lit(count);
}
