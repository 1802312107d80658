import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import type { Backend } from '../backend.js';
import { KyselyStore } from '../kysely-store.js';
import type { Database } from '../schema.js';
import { BackgroundCheckpoints } from './checkpoints.js';
import { claimDueFeeds } from './claim.js';

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Kysely opens SQLite transactions with a plain (deferred) BEGIN. Every transaction of ours writes, and
 * a deferred one that reads first and then writes fails with SQLITE_BUSY at once, busy_timeout or not,
 * when another process wrote in between (WAL snapshot). BEGIN IMMEDIATE takes the write lock up front,
 * waiting up to busy_timeout for it.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #database: BetterSqlite3.Database;

  constructor(config: SqliteDialectConfig & { database: BetterSqlite3.Database }) {
    super(config);
    this.#database = config.database;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  // A full disk (SQLITE_FULL) or an I/O error makes SQLite roll the transaction back itself; Kysely's
  // ROLLBACK then failed with "cannot rollback - no transaction is active", and that error replaced the
  // one that said what happened (issue 12: poll --once on a full disk).
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#database.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig & { database: BetterSqlite3.Database };

  constructor(config: SqliteDialectConfig & { database: BetterSqlite3.Database }) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

// Kysely prepares every query anew; SQLite then parses and plans it again each time, which cost a third
// of a poll run's time on the feed farm (bench:poll). Recent statements are kept by their SQL text.
const STATEMENT_CACHE_SIZE = 256;

/** The database with `prepare` answered from a bounded cache of recent statements. */
function withStatementCache(database: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, key, receiver) {
      if (key !== 'prepare') return Reflect.get(target, key, receiver);
      return (sql: string) => {
        let statement = cache.get(sql);
        if (statement) {
          cache.delete(sql);
        } else {
          statement = prepare(sql);
          if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        }
        cache.set(sql, statement);
        return statement;
      };
    },
  });
}

/** The SQLite backend; a database in a file checkpoints its WAL in the background while polls are written. */
function sqliteBackend(checkpoints: BackgroundCheckpoints | undefined): Backend {
  return {
    dialect: 'sqlite',
    claimDueFeeds,
    // BEGIN IMMEDIATE already holds the one write lock for the whole migration transaction.
    lockMigrations: async () => {},
    afterPollsWritten: () => checkpoints?.request(),
    close: async () => checkpoints?.stop(),
  };
}

/** Opens the SQLite database at `path` (an absolute path or `:memory:`), creating its folder. */
export function openSqliteStore(path: string): KyselyStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new BetterSqlite3(path);
  // A new database gets 8 KiB pages (an existing one keeps its own: the pragma changes nothing there).
  // Entries are one to a few KiB each: storing 25,000 of them took a tenth less time than with 4 KiB.
  database.pragma('page_size = 8192');
  // WAL: readers (the web UI) never wait for the poller's writes, and the poller never waits for them.
  database.pragma('journal_mode = WAL');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // SQLite leaves foreign keys off unless each connection asks; removeFeed relies on ON DELETE CASCADE.
  database.pragma('foreign_keys = ON');
  // In WAL mode NORMAL survives an application crash; only a power cut can lose the last commits.
  database.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
  });
  const checkpoints = path === ':memory:' ? undefined : new BackgroundCheckpoints(database, path);
  return new KyselyStore(db, sqliteBackend(checkpoints));
}
