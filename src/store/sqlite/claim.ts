import type { Kysely, Selectable } from 'kysely';
import { claimableFeedIds, leaseFeeds } from '../claim.js';
import type { Database, FeedTable } from '../schema.js';
import type { ClaimOptions } from '../types.js';

/**
 * Claims due feeds with one `UPDATE feeds SET lease... WHERE id IN (SELECT ... LIMIT n) RETURNING *`.
 * A writing statement takes SQLite's write lock before it reads (waiting up to busy_timeout), and
 * SQLite has one writer at a time, so no other process can lease the same feeds in between: the
 * statement is its own BEGIN IMMEDIATE transaction.
 */
export function claimDueFeeds(db: Kysely<Database>, options: ClaimOptions): Promise<Selectable<FeedTable>[]> {
  return leaseFeeds(db, options, claimableFeedIds(db, options, 'sqlite'));
}
