import BetterSqlite3 from 'better-sqlite3';
import { searchKey } from '../../src/store/index.js';

/**
 * SQLite: the rowids the full-text index holds, and the search keys of the entries the database holds
 * (both ascending), read through a connection of its own. They are equal when the index has one row per
 * entry, under its key, and nothing of entries gone.
 */
export function searchIndexKeys(path: string): { indexed: bigint[]; entries: bigint[] } {
  const database = new BetterSqlite3(path, { readonly: true });
  try {
    const rows = database.prepare('SELECT rowid FROM entries_fts ORDER BY rowid').safeIntegers(true).all();
    const entries = database.prepare('SELECT id, sort_at FROM entries').all() as {
      id: number;
      sort_at: string;
    }[];
    return {
      indexed: rows.map((row) => (row as { rowid: bigint }).rowid),
      entries: entries.map((entry) => searchKey(entry.sort_at, entry.id)).sort((x, y) => (x < y ? -1 : 1)),
    };
  } finally {
    database.close();
  }
}
