import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Store } from '../../src/store/index.js';
import type { StoreBackend } from './temp-store.js';

/** Runs SQL on the store's database through a connection of its own (triggers, deliberate damage). */
export async function runSql(backend: StoreBackend, store: Store, statements: string): Promise<void> {
  const url = backend.urlOf(store);
  if (backend.name === 'sqlite') {
    const database = new BetterSqlite3(url.slice('sqlite:'.length));
    try {
      database.exec(statements);
    } finally {
      database.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}
