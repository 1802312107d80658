import { resolve } from 'node:path';
import { redactPassword } from './redact.js';
import type { Store } from './store.js';
import { StoreError, storeFault } from './store-error.js';

/** How a store is opened. */
export interface OpenOptions {
  /**
   * SQLite: threads that answer reads beside the main connection (serve); none by default. PostgreSQL
   * reads through its connection pool already.
   */
  readThreads?: number | undefined;
}

/**
 * Opens the store a database URL names: `sqlite:PATH` (relative to the working directory;
 * `sqlite::memory:` for a private in-memory database) or `postgres://...` / `postgresql://...`.
 * It runs no migrations: call `migrate()`.
 */
export async function openStore(url: string, options: OpenOptions = {}): Promise<Store> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '')
      throw new StoreError('config', 'store: sqlite: needs a path, e.g. sqlite:data/tidings.db');
    // Each backend's driver is loaded only when it is used (pg costs 60 ms of every CLI start).
    const { openSqliteStore } = await import('./sqlite/index.js');
    const file = path === ':memory:' ? path : resolve(path);
    try {
      return openSqliteStore(file, { readThreads: options.readThreads });
    } catch (error) {
      // a folder that cannot be created or written, a file that is no database: one message naming it
      throw storeFault(error, `opening the SQLite database ${file}`) ?? error;
    }
  }
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const { openPostgresStore } = await import('./postgres/index.js');
    return openPostgresStore(url);
  }
  throw new StoreError(
    'config',
    `store: unsupported database URL ${redactPassword(url)}; use sqlite:PATH or postgres://USER@HOST/DB`,
  );
}
