import type { ExpressionBuilder, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Database, FeedTable } from './schema.js';
import type { ClaimFilter, ClaimOptions } from './types.js';
import { rowCount, toDbBool, toIso } from './values.js';

type FeedIdQuery = SelectQueryBuilder<Database, 'feeds', { id: number }>;

/**
 * The ids a claim may take: followed by at least one channel (also when forced or named: a feed nobody
 * follows costs no requests, issue 13), not paused, not gone, no Retry-After ahead, no live lease (the
 * worker's own included, so a worker never polls one feed twice at once), and due unless forced. Feeds whose last
 * fetch failed come first, then soonest due: a failing feed is the likeliest to run into the timeout,
 * and one that starts last keeps the whole run waiting for it (longest job first).
 */
export function claimableFeedIds(
  db: Kysely<Database>,
  options: ClaimOptions,
  dialect: 'sqlite' | 'postgres',
): FeedIdQuery {
  return claimableFeeds(db, options, dialect)
    .select('id')
    .orderBy((eb) => eb('error_count', '>', 0), 'desc')
    .orderBy('next_check_at')
    .orderBy('id')
    .limit(rowCount(options.limit));
}

export function claimableFeeds(db: Kysely<Database>, options: ClaimFilter, dialect: 'sqlite' | 'postgres') {
  const now = toIso(options.now, 'now');
  let query = db
    .selectFrom('feeds')
    .where(isFollowed)
    .where('paused', '=', toDbBool(false, dialect))
    .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'gone')]))
    .where((eb) => eb.or([eb('retry_after_at', 'is', null), eb('retry_after_at', '<=', now)]))
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]));
  if (options.force !== true) query = query.where('next_check_at', '<=', now);
  if (options.feedIds !== undefined) query = query.where('id', 'in', options.feedIds);
  // claimed once per round, whatever became of that claim's lease (issue 22)
  const round = options.round;
  if (round !== undefined)
    query = query.where((eb) => eb.or([eb('claim_round', 'is', null), eb('claim_round', '!=', round)]));
  const before = options.notCheckedSince;
  if (before !== undefined) {
    const since = toIso(before, 'notCheckedSince');
    query = query.where((eb) =>
      eb.or([eb('last_checked_at', 'is', null), eb('last_checked_at', '<', since)]),
    );
  }
  return query;
}

/** A feed at least one channel follows. */
export function isFollowed(eb: ExpressionBuilder<Database, 'feeds'>) {
  return eb.exists(
    eb
      .selectFrom('subscriptions')
      .select('subscriptions.id')
      .whereRef('subscriptions.feed_id', '=', 'feeds.id'),
  );
}

/** Sets the worker's lease on the feeds `ids` selects, in one UPDATE, and returns them in claim order. */
export async function leaseFeeds(
  db: Kysely<Database>,
  options: ClaimOptions,
  ids: FeedIdQuery,
): Promise<Selectable<FeedTable>[]> {
  if (options.limit <= 0 || options.feedIds?.length === 0) return [];
  const leaseExpiresAt = new Date(Date.parse(toIso(options.now, 'now')) + options.leaseMs).toISOString();
  const rows = await db
    .updateTable('feeds')
    .set({
      lease_owner: options.workerId,
      lease_expires_at: leaseExpiresAt,
      ...(options.round !== undefined ? { claim_round: options.round } : {}),
    })
    .where('id', 'in', ids)
    .returningAll()
    .execute();
  // RETURNING promises no order.
  return rows.sort(
    (a, b) =>
      Number(b.error_count > 0) - Number(a.error_count > 0) ||
      compareText(a.next_check_at, b.next_check_at) ||
      a.id - b.id,
  );
}

function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
