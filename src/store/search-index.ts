import type { SelectQueryBuilder, Transaction } from 'kysely';
import { insertUniform } from './query-template.js';
import type { Database } from './schema.js';
import { searchKey, searchKeySql } from './search-key.js';
import { binaryChunks } from './values.js';

type Dialect = 'sqlite' | 'postgres';

// Text beyond this is not indexed: PostgreSQL refuses a tsvector over 1 MB and fails the whole poll, and
// the words that identify a post come early in it.
const MAX_INDEXED_CHARS = 100_000;

// Two bound values per row; SQLite allows 32766 per statement.
const FTS_CHUNK = 500;

/** One entry's text for the full-text index, with its sort_at (SQLite keys the index by it). */
export interface IndexedText {
  id: number;
  sortAt: string;
  text: string;
}

/** The part of a text the index holds: its first MAX_INDEXED_CHARS characters. */
export function clip(text: string): string {
  return text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text;
}

/**
 * Writes the SQLite FTS5 rows of these entries (keyed by search-key.ts), replacing the rows of entries
 * indexed before (an updated entry). PostgreSQL keeps its index in the entry's row: nothing to do.
 */
export async function writeSearchIndex(
  trx: Transaction<Database>,
  dialect: Dialect,
  texts: readonly IndexedText[],
  options: { replace: boolean },
): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const part of binaryChunks(texts, FTS_CHUNK)) {
    const keys = part.map((item) => searchKey(item.sortAt, item.id));
    if (options.replace) await trx.deleteFrom('entries_fts').where('rowid', 'in', keys).execute();
    const rows = part.map((item, at) => ({ rowid: keys[at] as bigint, body: clip(item.text) }));
    await insertUniform(trx, 'sqlite:entries_fts', rows, (values) =>
      trx.insertInto('entries_fts').values(values as typeof rows),
    );
  }
}

/**
 * Deletes the SQLite FTS5 rows of the entries `entries` selects (from `entries`, any columns), before
 * they go: the FTS5 table has no foreign key to cascade along. On PostgreSQL the index goes with the rows.
 */
export async function dropFromSearchIndex(
  trx: Transaction<Database>,
  dialect: Dialect,
  entries: SelectQueryBuilder<Database, 'entries', object>,
): Promise<void> {
  if (dialect !== 'sqlite') return;
  await trx
    .deleteFrom('entries_fts')
    .where(
      'rowid',
      'in',
      entries.clearSelect().select(searchKeySql('entries.sort_at', 'entries.id').as('key')),
    )
    .execute();
}

/** Deletes the SQLite FTS5 rows of these entries, already deleted (their id and sort_at as they were). */
export async function dropDeletedFromSearchIndex(
  trx: Transaction<Database>,
  dialect: Dialect,
  entries: readonly { id: number; sortAt: string }[],
): Promise<void> {
  if (dialect !== 'sqlite' || entries.length === 0) return;
  await trx
    .deleteFrom('entries_fts')
    .where(
      'rowid',
      'in',
      entries.map((entry) => searchKey(entry.sortAt, entry.id)),
    )
    .execute();
}
