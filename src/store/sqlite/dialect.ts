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
  sql,
} from 'kysely';
import type { Backend } from '../backend.js';
import type { Database } from '../schema.js';
import { Store } from '../store.js';
import { StoreError } from '../store-error.js';
import { BackgroundCheckpoints } from './checkpoints.js';
import { claimDueFeeds } from './claim.js';
import { ReadPool, UNANSWERED } from './read-pool.js';
import { ReadTimes } from './read-times.js';
import { type InlineReader, RoutingDriver } from './routing-driver.js';
import { readTimed, withStatementCache } from './statement-cache.js';

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

/** Reads on the main connection while it holds no transaction (whose uncommitted rows a read must not see). */
function inlineReader(database: BetterSqlite3.Database): InlineReader {
  return (sql, parameters) => {
    if (database.inTransaction) return UNANSWERED;
    return readTimed((text) => database.prepare(text), sql, parameters) ?? UNANSWERED;
  };
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig & { database: BetterSqlite3.Database };
  readonly #readPool: ReadPool | undefined;

  readonly #inlineBelowMs: number | undefined;

  constructor(
    config: SqliteDialectConfig & { database: BetterSqlite3.Database },
    readPool?: ReadPool,
    inlineBelowMs?: number,
  ) {
    super(config);
    this.#config = config;
    this.#readPool = readPool;
    this.#inlineBelowMs = inlineBelowMs;
  }

  override createDriver(): Driver {
    const driver = new ImmediateSqliteDriver(this.#config);
    if (this.#readPool === undefined) return driver;
    return new RoutingDriver(driver, {
      pool: this.#readPool,
      inline: inlineReader(this.#config.database),
      times: new ReadTimes(this.#inlineBelowMs),
    });
  }
}

/** One row of PRAGMA foreign_key_check: a row of `table` whose parent in `parent` is missing. */
interface ForeignKeyFault {
  table: string;
  rowid: number | null;
  parent: string;
}

/**
 * The SQLite backend; a database in a file checkpoints its WAL in the background while polls are written.
 * `database` is the main (writing) connection: the read threads have their own, and a pragma set here
 * holds for every write.
 */
function sqliteBackend(
  database: BetterSqlite3.Database,
  checkpoints: BackgroundCheckpoints | undefined,
): Backend {
  return {
    dialect: 'sqlite',
    claimDueFeeds,
    // BEGIN IMMEDIATE already holds the one write lock for the whole migration transaction.
    lockMigrations: async () => {},
    // Migrations run when the store opens, before anything else writes on this connection: no other
    // write runs without foreign keys meanwhile.
    aroundMigrations: async (run) => {
      // inside a transaction the pragma would do nothing, silently
      if (database.inTransaction) throw new Error('store: migrations cannot start inside a transaction');
      database.pragma('foreign_keys = OFF');
      try {
        return await run();
      } finally {
        database.pragma('foreign_keys = ON');
      }
    },
    checkMigrations: async (trx) => {
      const { rows } = await sql<ForeignKeyFault>`PRAGMA foreign_key_check`.execute(trx);
      const first = rows[0];
      if (first === undefined) return;
      throw new StoreError(
        'invalid',
        `store: the migrations were undone: they left rows without their parent row (${rows.length}, first: ${first.table} row ${first.rowid ?? '?'} -> ${first.parent})`,
      );
    },
    afterPollsWritten: () => checkpoints?.request(),
    close: async () => checkpoints?.stop(),
  };
}

/** How the SQLite store is opened. */
export interface SqliteOptions {
  /**
   * Threads that answer the reads made outside transactions, each with its own connection (serve: see
   * read-pool.ts). 0, or a database in memory (which no other connection can open), reads on the main
   * connection.
   */
  readThreads?: number | undefined;
  /** Reads lately faster than this run inline (ReadTimes; tests set 0 to send every read to a thread). */
  inlineBelowMs?: number | undefined;
}

/** The SQLite database at `path` (an absolute path or `:memory:`), opened as the store uses it, with its folder. */
export function openSqliteDatabase(
  path: string,
  options: SqliteOptions = {},
): { db: Kysely<Database>; database: BetterSqlite3.Database } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new BetterSqlite3(path);
  // A new database gets 8 KiB pages (an existing one keeps its own: the pragma changes nothing there).
  // Entries are one to a few KiB each: storing 25,000 of them took a tenth less time than with 4 KiB.
  database.pragma('page_size = 8192');
  // WAL: readers (the web UI) never wait for the poller's writes, and the poller never waits for them.
  database.pragma('journal_mode = WAL');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // SQLite leaves foreign keys off unless each connection asks; feeds.remove relies on ON DELETE CASCADE.
  database.pragma('foreign_keys = ON');
  // In WAL mode NORMAL survives an application crash; only a power cut can lose the last commits.
  database.pragma('synchronous = NORMAL');
  const readThreads = path === ':memory:' ? 0 : (options.readThreads ?? 0);
  const readPool = readThreads > 0 ? new ReadPool(path, readThreads, BUSY_TIMEOUT_MS) : undefined;
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect(
      { database: withStatementCache(database) },
      readPool,
      options.inlineBelowMs,
    ),
  });
  return { db, database };
}

/** Opens the SQLite store at `path` (an absolute path or `:memory:`), creating its folder. */
export function openSqliteStore(path: string, options: SqliteOptions = {}): Store {
  const { db, database } = openSqliteDatabase(path, options);
  const checkpoints = path === ':memory:' ? undefined : new BackgroundCheckpoints(database, path);
  return new Store(db, sqliteBackend(database, checkpoints));
}
