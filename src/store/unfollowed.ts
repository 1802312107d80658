import type { Kysely } from 'kysely';
import { isFollowed } from './claim.js';
import { removeFeed } from './feeds.js';
import type { Database } from './schema.js';
import { toIso } from './values.js';

type Dialect = 'sqlite' | 'postgres';

/** How long a feed that no channel follows keeps its entries and heartbeats (starred entries will need them). */
export const UNFOLLOWED_KEEP_DAYS = 30;

/** What one sweep did. */
export interface UnfollowedSweep {
  /** Feeds found without a subscription (a channel deleted, say) and marked unfollowed now. */
  marked: number;
  /** Feeds unfollowed more than `keepDays` ago, deleted with their entries and heartbeats. */
  forgotten: number[];
}

/**
 * Keeps `unfollowed_at` true to the subscriptions (set on feeds that lost their last one by a path that
 * did not say so, cleared on feeds followed again), then deletes the feeds unfollowed for `keepDays`.
 */
export async function sweepUnfollowedFeeds(
  db: Kysely<Database>,
  dialect: Dialect,
  now: string,
  keepDays: number,
): Promise<UnfollowedSweep> {
  const at = toIso(now, 'now');
  const marked = await db
    .updateTable('feeds')
    .set({ unfollowed_at: at })
    .where('unfollowed_at', 'is', null)
    .where((eb) => eb.not(isFollowed(eb)))
    .executeTakeFirst();
  await db
    .updateTable('feeds')
    .set({ unfollowed_at: null })
    .where('unfollowed_at', 'is not', null)
    .where(isFollowed)
    .execute();
  const before = new Date(Date.parse(at) - keepDays * 86_400_000).toISOString();
  const old = await db
    .selectFrom('feeds')
    .select('id')
    .where('unfollowed_at', '<', before)
    .where((eb) => eb.not(isFollowed(eb)))
    .execute();
  for (const { id } of old) await removeFeed(db, dialect, id);
  return { marked: Number(marked.numUpdatedRows), forgotten: old.map((row) => row.id) };
}
