import type { Kysely, Selectable, Updateable } from 'kysely';
import type { StoredFeed } from '../model/stored.js';
import { refreshHidden } from './channel-entries.js';
import { feedFromRow, feedPatchToRow, newFeedRow } from './rows.js';
import type { Database, FeedTable } from './schema.js';
import { dropFeedFromSearchIndex } from './search-index.js';
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

/** The earliest next-check time of a feed that is polled at all (not paused, not gone). */
export async function nextCheckTime(db: Kysely<Database>, dialect: Dialect): Promise<string | undefined> {
  const row = await db
    .selectFrom('feeds')
    .select((eb) => eb.fn.min('next_check_at').as('next'))
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
 * and its entries leave the full-text index in the same transaction.
 */
export async function removeFeed(db: Kysely<Database>, dialect: Dialect, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await dropFeedFromSearchIndex(trx, dialect, id);
    await trx.deleteFrom('feeds').where('id', '=', id).execute();
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
