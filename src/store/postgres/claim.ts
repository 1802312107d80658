import type { Kysely, Selectable } from 'kysely';
import { claimableFeedIds, leaseFeeds } from '../claim.js';
import type { Database, FeedTable } from '../schema.js';
import type { ClaimOptions } from '../types.js';

/**
 * Claims due feeds with `UPDATE feeds SET lease... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED
 * LIMIT n) RETURNING *`. Rows another worker is claiming at this moment are locked, so they are skipped
 * rather than waited for; a row whose lease another worker committed meanwhile is re-checked by
 * PostgreSQL against the lease condition (READ COMMITTED) and dropped. Workers thus get disjoint feeds.
 */
export function claimDueFeeds(db: Kysely<Database>, options: ClaimOptions): Promise<Selectable<FeedTable>[]> {
  return leaseFeeds(db, options, claimableFeedIds(db, options, 'postgres').forUpdate().skipLocked());
}
