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
  /** Called after polls were committed (SQLite: asks for a background checkpoint). */
  afterPollsWritten?(): void;
  /** Stops what the backend runs beside the connection; called before the connection closes. */
  close?(): Promise<void>;
}
