import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Store } from '../../src/store/index.js';
import type { Database } from '../../src/store/schema.js';
import { openSqliteDatabase } from '../../src/store/sqlite/dialect.js';
import type { StoreBackend } from './temp-store.js';

/**
 * A Kysely connection of its own to the database `store` was opened on, as the store's areas query it
 * (SQLite with foreign keys on; PostgreSQL's BIGINT ids as numbers): for tests that build an area
 * themselves or write rows the store's methods would not.
 */
export function openStoreDb(backend: StoreBackend, store: Store): Kysely<Database> {
  const url = backend.urlOf(store);
  if (backend.name === 'sqlite') return openSqliteDatabase(url.slice('sqlite:'.length)).db;
  // as src/store/postgres/dialect.ts parses them: our ids stay far below 2^53
  const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser;
  const pool = new pg.Pool({ connectionString: url, types: { getTypeParser } });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
