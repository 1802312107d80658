import type { Kysely, Selectable } from 'kysely';
import type { StoredFeed } from '../../model/index.js';
import { changing, StoreArea } from '../area.js';
import { refreshHidden } from '../channel-entries.js';
import { isFollowed } from '../claim.js';
import {
  feedColumns,
  feedFieldsFromRow,
  feedFromRow,
  feedPatchToRow,
  namesFeed,
  newFeedRow,
} from '../rows.js';
import type { Database, FeedTable } from '../schema.js';
import { dropFromSearchIndex } from '../search-index.js';
import { StoreError } from '../store-error.js';
import { FEED_SUMMARY_FIELDS, type FeedPatch, type FeedSummary, type UnfollowedSweep } from '../types.js';
import { chunk, toIso } from '../values.js';

/** Feed ids per statement, well under the bound-variable limits of both databases. */
const ID_CHUNK = 500;

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

/**
 * Deletes a feed; its entries, entry states, subscriptions and heartbeats go with it (ON DELETE CASCADE),
 * and its entries leave the full-text index in the same transaction. Saved entries are never deleted
 * (issue 15; saved_entries refuses it with ON DELETE RESTRICT): a feed with saved entries is kept,
 * unfollowed (not polled) and followed by no channel, with its saved entries only, so that they keep
 * their feed's name.
 */
async function removeFeed(db: Kysely<Database>, dialect: Dialect, id: number): Promise<void> {
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

/** The feeds: added, looked up, patched, removed, and forgotten when no channel follows them. */
export class Feeds extends StoreArea {
  /** Returns the feed stored under `url`, adding it (due at once) when there is none. */
  async add(url: string, now: string): Promise<StoredFeed> {
    const db = this.db;
    const dialect = this.dialect;
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
  async get(id: number): Promise<StoredFeed | undefined> {
    const db = this.db;
    const row = await db.selectFrom('feeds').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : feedFromRow(row);
  }

  /** Returns the feed stored under this URL (polled or first subscribed), if any. */
  async findByUrl(url: string): Promise<StoredFeed | undefined> {
    const db = this.db;
    const row = await findFeedRow(db, url);
    return row === undefined ? undefined : feedFromRow(row);
  }

  /** Returns every feed, oldest first. */
  async list(): Promise<StoredFeed[]> {
    const db = this.db;
    const rows = await db.selectFrom('feeds').selectAll().orderBy('id').execute();
    return rows.map(feedFromRow);
  }

  /** Applies a patch to a feed; an unknown id changes nothing. */
  async update(id: number, patch: FeedPatch): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
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

  /**
   * Removes a feed with its entries, subscriptions and heartbeats. Saved entries are never deleted: a
   * feed with saved entries is kept, paused and followed by no channel, with only its saved entries.
   */
  remove(id: number): Promise<void> {
    return changing(this.area, 'all', () => removeFeed(this.db, this.dialect, id));
  }

  /**
   * Returns the summaries of the feeds with these ids (every feed when none are given), oldest first. A
   * person's dashboard asks for the feeds they follow: all 2,000 feeds of an instance, to keep 200, were
   * most of a `/feeds` request (bench:serve --users 100).
   */
  async listSummaries(ids?: readonly number[]): Promise<FeedSummary[]> {
    const db = this.db;
    const select = () =>
      db
        .selectFrom('feeds')
        .select(['id', ...feedColumns(FEED_SUMMARY_FIELDS)])
        .orderBy('id');
    const rows =
      ids === undefined
        ? await select().execute()
        : (
            await Promise.all(
              chunk([...new Set(ids)], ID_CHUNK).map((part) => select().where('id', 'in', part).execute()),
            )
          )
            .flat()
            .sort((a, b) => a.id - b.id);
    return rows.map((row) => feedFieldsFromRow(row, FEED_SUMMARY_FIELDS));
  }

  /**
   * Keeps `unfollowed_at` true to the subscriptions (set on feeds that lost their last one by a path that
   * did not say so, cleared on feeds followed again), then deletes the feeds unfollowed for `keepDays`.
   */
  async sweepUnfollowed(now: string, keepDays: number): Promise<UnfollowedSweep> {
    const db = this.db;
    const dialect = this.dialect;
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
}
