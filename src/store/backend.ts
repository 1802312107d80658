import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, FeedTable } from './schema.js';
import type { ClaimOptions } from './types.js';

/** What differs between SQLite and PostgreSQL behind the shared Kysely store. */
export interface Backend {
  readonly dialect: 'sqlite' | 'postgres';
  /** Leases the claimable feeds to the worker in one statement that no other worker can interleave with. */
  claimDueFeeds(db: Kysely<Database>, options: ClaimOptions): Promise<Selectable<FeedTable>[]>;
  /** Holds other processes off the migrations until the transaction `trx` ends. */
  lockMigrations(trx: Transaction<Database>): Promise<void>;
  /**
   * Runs the migrations' transaction (`run`) in the conditions they need. SQLite: with foreign keys off,
   * since rebuilding a table (0011) drops it, and a DROP TABLE with foreign keys on deletes every row that
   * references it. The pragma cannot change inside a transaction, hence around it.
   */
  aroundMigrations?<T>(run: () => Promise<T>): Promise<T>;
  /**
   * Called in the migrations' transaction after migrations were applied, before the commit, to fail it
   * (roll them back) when they left the database inconsistent. SQLite: checks the foreign keys that were
   * off while they ran.
   */
  checkMigrations?(trx: Transaction<Database>): Promise<void>;
  /** Called after polls were committed (SQLite: asks for a background checkpoint). */
  afterPollsWritten?(): void;
  /** Stops what the backend runs beside the connection; called before the connection closes. */
  close?(): Promise<void>;
}
