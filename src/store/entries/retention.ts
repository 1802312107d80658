import { type Kysely, sql } from 'kysely';
import { flag } from '../channel-entries.js';
import type { Database } from '../schema.js';
import { dropDeletedFromSearchIndex } from '../search-index.js';
import type { RetentionPolicy } from '../types.js';
import { rowCount, toIso } from '../values.js';

// Retention: a database that only grows gets slower and larger for entries nobody will read again.
// Removed are entries of followed feeds that sort before the cut-off, are not among their feed's newest
// `keepPerFeed`, are read (or removed, or muted) in every channel that follows their feed and are not
// saved. Their guids stay in removed_guids, so that a feed that still lists them does not bring them back
// as new (polling.record skips them).
//
// Read is proven, never assumed: an entry without a row in a channel that follows its feed stays. A feed
// no channel follows has no rows at all; its entries stay until it is forgotten (UNFOLLOWED_KEEP_DAYS), so
// that following it again gives back its entries with their read state (issue 22: they were deleted as
// "unread nowhere" and their guids blocked).

type Dialect = 'sqlite' | 'postgres';

/** The sort key of a feed's `keepPerFeed`-th newest entry: older ones may go. */
export async function keepBoundary(db: Kysely<Database>, feedId: number, keepPerFeed: number) {
  return db
    .selectFrom('entries')
    .select(['sort_at', 'id'])
    .where('feed_id', '=', feedId)
    .orderBy('sort_at', 'desc')
    .orderBy('id', 'desc')
    .offset(rowCount(Math.max(keepPerFeed - 1, 0)))
    .limit(rowCount(1))
    .executeTakeFirst();
}

/**
 * Removes one batch of a feed's removable entries in one transaction and returns how many went. The
 * conditions are checked again by the DELETE itself, so an entry marked unread or saved meanwhile stays.
 */
export async function removeBatch(
  db: Kysely<Database>,
  dialect: Dialect,
  feedId: number,
  boundary: { sort_at: string; id: number },
  policy: RetentionPolicy,
  limit: number,
): Promise<number> {
  const yes = flag(dialect, true);
  const cutoff = toIso(policy.olderThan, 'olderThan');
  const removable = sql`e.feed_id = ${feedId} AND e.sort_at < ${cutoff}
    AND (e.sort_at, e.id) < (${boundary.sort_at}, ${boundary.id})
    AND EXISTS (SELECT 1 FROM subscriptions f WHERE f.feed_id = e.feed_id)
    AND NOT EXISTS (SELECT 1 FROM subscriptions f WHERE f.feed_id = e.feed_id
      AND NOT EXISTS (SELECT 1 FROM channel_entries c WHERE c.channel_id = f.channel_id AND c.entry_id = e.id
        AND (c.is_read = ${yes} OR c.is_removed = ${yes} OR c.is_hidden = ${yes})))
    AND NOT EXISTS (SELECT 1 FROM saved_entries s WHERE s.entry_id = e.id)`;
  return db.transaction().execute(async (trx) => {
    const { rows: picked } = await sql<{ id: number }>`SELECT e.id FROM entries e WHERE ${removable}
      ORDER BY e.sort_at, e.id LIMIT ${rowCount(limit)}`.execute(trx);
    if (picked.length === 0) return 0;
    const ids = sql.join(picked.map((row) => row.id));
    const { rows: removed } = await sql<{ id: number; guid: string; sort_at: string }>`DELETE FROM entries
      WHERE id IN (${ids}) AND id IN (SELECT e.id FROM entries e WHERE ${removable})
      RETURNING id, guid, sort_at`.execute(trx);
    if (removed.length === 0) return 0;
    await dropDeletedFromSearchIndex(
      trx,
      dialect,
      removed.map((row) => ({ id: row.id, sortAt: row.sort_at })),
    );
    await trx
      .insertInto('removed_guids')
      .values(
        removed.map((row) => ({ feed_id: feedId, guid: row.guid, removed_at: toIso(policy.now, 'now') })),
      )
      .onConflict((conflict) => conflict.columns(['feed_id', 'guid']).doNothing())
      .execute();
    return removed.length;
  });
}
