import type { Kysely, Selectable, Updateable } from 'kysely';
import type { StoredFeed } from '../model/stored.js';
import { refreshHidden } from './channel-entries.js';
import { isFollowed } from './claim.js';
import { feedFromRow, feedPatchToRow, newFeedRow } from './rows.js';
import type { Database, FeedTable } from './schema.js';
import { dropFromSearchIndex } from './search-index.js';
import type { FeedPatch } from './store.js';
import { StoreError } from './store-error.js';
import { toDbBool, toIso } from './values.js';

type Dialect = 'sqlite' | 'postgres';

/** The feed stored under this URL, polled (`url`) or first subscribed (`original_url`); `url` wins. */
async function findFeedRow(db: Kysely<Database>, url: string): Promise<Selectable<FeedTable> | undefined> {
  return db
    .selectFrom('feeds')
    .selectAll()
    .where((eb) => eb.or([eb('url', '=', url), eb('original_url', '=', url)]))
    .orderBy((eb) => eb.case().when('url', '=', url).then(0).else(1).end())
    .orderBy('id')
    .executeTakeFirst();
}

/** Returns the feed stored under `url`, adding it (due at once) when there is none. */
export async function addFeed(
  db: Kysely<Database>,
  dialect: Dialect,
  url: string,
  now: string,
): Promise<StoredFeed> {
  const existing = await findFeedRow(db, url);
  if (existing !== undefined) return feedFromRow(existing);
  await db
    .insertInto('feeds')
    .values(newFeedRow(url, toIso(now, 'now'), dialect))
    .onConflict((conflict) => conflict.column('url').doNothing())
    .execute();
  // Another process may have added the same URL between the look-up and the insert: read what is there.
  const row = await findFeedRow(db, url);
  if (row === undefined) throw new StoreError('conflict', `store: feed ${url} vanished while being added`);
  return feedFromRow(row);
}

/** Returns the feed with this id, if any. */
export async function getFeed(db: Kysely<Database>, id: number): Promise<StoredFeed | undefined> {
  const row = await db.selectFrom('feeds').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : feedFromRow(row);
}

/** Returns the feed stored under this URL (polled or first subscribed), if any. */
export async function findFeedByUrl(db: Kysely<Database>, url: string): Promise<StoredFeed | undefined> {
  const row = await findFeedRow(db, url);
  return row === undefined ? undefined : feedFromRow(row);
}

/** Returns every feed, oldest first. */
export async function listFeeds(db: Kysely<Database>): Promise<StoredFeed[]> {
  const rows = await db.selectFrom('feeds').selectAll().orderBy('id').execute();
  return rows.map(feedFromRow);
}

/** The earliest next-check time of a feed that is polled at all (followed, not paused, not gone). */
export async function nextCheckTime(db: Kysely<Database>, dialect: Dialect): Promise<string | undefined> {
  const row = await db
    .selectFrom('feeds')
    .select((eb) => eb.fn.min('next_check_at').as('next'))
    .where(isFollowed)
    .where('paused', '=', toDbBool(false, dialect))
    .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'gone')]))
    .executeTakeFirst();
  return row?.next ?? undefined;
}

/** Applies a patch to a feed; an unknown id changes nothing. */
export async function updateFeed(
  db: Kysely<Database>,
  dialect: Dialect,
  id: number,
  patch: FeedPatch,
): Promise<void> {
  const row = feedPatchToRow(patch, dialect);
  if (Object.keys(row).length === 0) return;
  if (!namesFeed(row)) {
    await db.updateTable('feeds').set(row).where('id', '=', id).execute();
    return;
  }
  // A rule may name the feed's new URL or site: what its entries show is worked out again.
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('feeds').set(row).where('id', '=', id).execute();
    await refreshHidden(trx, { feedId: id });
  });
}

/** True when a feed patch changes a URL that mute and block rules match (url, site_url). */
export function namesFeed(row: Updateable<FeedTable>): boolean {
  return 'url' in row || 'site_url' in row;
}

/**
 * Deletes a feed; its entries, entry states, subscriptions and heartbeats go with it (ON DELETE CASCADE),
 * and its entries leave the full-text index in the same transaction. Saved entries are never deleted
 * (issue 15; saved_entries refuses it with ON DELETE RESTRICT): a feed with saved entries is kept,
 * unfollowed (not polled) and followed by no channel, with its saved entries only, so that they keep
 * their feed's name.
 */
export async function removeFeed(db: Kysely<Database>, dialect: Dialect, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const saved = await trx
      .selectFrom('saved_entries')
      .innerJoin('entries', 'entries.id', 'saved_entries.entry_id')
      .select('entries.id')
      .where('entries.feed_id', '=', id)
      .executeTakeFirst();
    if (saved === undefined) {
      await dropFromSearchIndex(trx, dialect, trx.selectFrom('entries').where('entries.feed_id', '=', id));
      await trx.deleteFrom('feeds').where('id', '=', id).execute();
      return;
    }
    const unsaved = trx
      .selectFrom('entries')
      .select('entries.id')
      .where('entries.feed_id', '=', id)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('saved_entries')
              .select('saved_entries.entry_id')
              .whereRef('saved_entries.entry_id', '=', 'entries.id'),
          ),
        ),
      );
    await dropFromSearchIndex(trx, dialect, unsaved);
    await trx.deleteFrom('entries').where('id', 'in', unsaved).execute();
    await trx.deleteFrom('subscriptions').where('feed_id', '=', id).execute();
    // kept for its saved entries, unfollowed (not polled: claims need a subscription); following it
    // again resumes it
    await trx
      .updateTable('feeds')
      .set({ unfollowed_at: toIso(new Date().toISOString(), 'now') })
      .where('id', '=', id)
      .where('unfollowed_at', 'is', null)
      .execute();
  });
}

/** Drops the worker's lease on a feed; a lease held by another worker stays. */
export async function releaseFeed(db: Kysely<Database>, id: number, workerId: string): Promise<void> {
  await db
    .updateTable('feeds')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', workerId)
    .execute();
}

/** Moves the expiry of the worker's leases on these feeds to `leaseExpiresAt`; returns how many it still holds. */
export async function renewLeases(
  db: Kysely<Database>,
  ids: readonly number[],
  workerId: string,
  leaseExpiresAt: string,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('feeds')
    .set({ lease_expires_at: leaseExpiresAt })
    .where('id', 'in', ids)
    .where('lease_owner', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Drops the worker's leases on these feeds in one statement (a run that stops short), and their claim in
 * `unclaimRound` when given; returns how many.
 */
export async function releaseFeeds(
  db: Kysely<Database>,
  ids: readonly number[],
  workerId: string,
  options: { unclaimRound?: string } = {},
): Promise<number> {
  if (ids.length === 0) return 0;
  const round = options.unclaimRound;
  const result = await db
    .updateTable('feeds')
    .set({ lease_owner: null, lease_expires_at: null })
    .$if(round !== undefined, (query) =>
      query.set((eb) => ({
        claim_round: eb
          .case()
          .when('claim_round', '=', round as string)
          .then(null)
          .else(eb.ref('claim_round'))
          .end(),
      })),
    )
    .where('id', 'in', ids)
    .where('lease_owner', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
