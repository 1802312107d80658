import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Channel, StoredFeed, Subscription } from '../model/stored.js';
import * as shown from './channel-entries.js';
import { runTemplate } from './query-template.js';
import { channelFromRow, feedFromRow, subscriptionFromRow } from './rows.js';
import type { ChannelTable, Database } from './schema.js';
import { StoreError } from './store-error.js';
import { toIso } from './values.js';

/** Microsub's special channel: created by the first migration, always first, never deleted. */
export const NOTIFICATIONS_UID = 'notifications';

/** Returns the channels in their order. */
export async function listChannels(db: Kysely<Database>): Promise<Channel[]> {
  const rows = await db.selectFrom('channels').selectAll().orderBy('position').orderBy('id').execute();
  return rows.map(channelFromRow);
}

/** Returns the channel with this uid, if any. Compiled once (query-template.ts): most Microsub requests ask it. */
export async function getChannel(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  uid: string,
): Promise<Channel | undefined> {
  const { rows } = await runTemplate<Selectable<ChannelTable>>(db, `${dialect}:get-channel`, [uid], () =>
    db.selectFrom('channels').selectAll().where('uid', '=', uid),
  );
  const row = rows[0];
  return row === undefined ? undefined : channelFromRow(row);
}

/** Creates a channel after the others; throws a `conflict` StoreError when the uid is taken. */
export async function createChannel(
  db: Kysely<Database>,
  name: string,
  uid: string = randomUUID(),
): Promise<Channel> {
  return db.transaction().execute(async (trx) => {
    const taken = await trx.selectFrom('channels').select('id').where('uid', '=', uid).executeTakeFirst();
    if (taken !== undefined) throw new StoreError('conflict', `store: channel ${uid} exists`);
    const last = await trx
      .selectFrom('channels')
      .select((eb) => eb.fn.max('position').as('position'))
      .executeTakeFirst();
    const row = await trx
      .insertInto('channels')
      .values({ uid, name, position: (last?.position ?? -1) + 1 })
      .returningAll()
      .executeTakeFirstOrThrow();
    return channelFromRow(row);
  });
}

/** Renames a channel; throws a `not_found` StoreError when there is none with this uid. */
export async function renameChannel(db: Kysely<Database>, uid: string, name: string): Promise<void> {
  const result = await db.updateTable('channels').set({ name }).where('uid', '=', uid).executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new StoreError('not_found', `store: no channel ${uid}`);
}

/** Deletes a channel with its subscriptions, entry states and filters; an unknown uid changes nothing. */
export async function deleteChannel(db: Kysely<Database>, uid: string): Promise<void> {
  if (uid === NOTIFICATIONS_UID)
    throw new StoreError('invalid', 'store: the notifications channel cannot be deleted');
  await db.deleteFrom('channels').where('uid', '=', uid).execute();
}

/**
 * Puts the channels `uids` first (after notifications, which stays on top), in that order; the others
 * keep their relative order after them. Unknown uids are ignored. Positions are renumbered from 0.
 */
export async function orderChannels(db: Kysely<Database>, uids: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('channels')
      .select(['id', 'uid', 'position'])
      .orderBy('position')
      .orderBy('id')
      .execute();
    const rank = new Map<string, number>([[NOTIFICATIONS_UID, -1]]);
    for (const uid of uids) if (!rank.has(uid)) rank.set(uid, rank.size);
    // Array.prototype.sort is stable: unlisted channels keep their order behind the listed ones.
    const ordered = [...rows].sort((a, b) => (rank.get(a.uid) ?? rank.size) - (rank.get(b.uid) ?? rank.size));
    for (const [position, row] of ordered.entries()) {
      if (row.position === position) continue;
      await trx.updateTable('channels').set({ position }).where('id', '=', row.id).execute();
    }
  });
}

/**
 * Subscribes a channel to a feed, or returns the subscription that exists. The feed's stored entries
 * join the channel's timeline and unread count in the same transaction.
 */
export async function subscribe(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  channelId: number,
  feedId: number,
  now: string,
): Promise<Subscription> {
  const at = toIso(now, 'now');
  await db.transaction().execute(async (trx) => {
    await shown.lockFeed(trx, dialect, feedId);
    await trx
      .insertInto('subscriptions')
      .values({ channel_id: channelId, feed_id: feedId, created_at: at })
      .onConflict((conflict) => conflict.columns(['channel_id', 'feed_id']).doNothing())
      .execute();
    // Rows that exist stay: subscribing again changes nothing.
    await shown.addSubscription(trx, dialect, channelId, feedId);
  });
  const row = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('feed_id', '=', feedId)
    .executeTakeFirstOrThrow();
  return subscriptionFromRow(row);
}

/** Removes a channel's subscription to a feed; the feed itself stays. */
export async function unsubscribe(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  channelId: number,
  feedId: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await shown.lockFeed(trx, dialect, feedId);
    await trx
      .deleteFrom('subscriptions')
      .where('channel_id', '=', channelId)
      .where('feed_id', '=', feedId)
      .execute();
    await shown.dropSubscription(trx, channelId, feedId);
  });
}

/** Returns subscriptions with their feeds, in one channel or all, by channel order then age. */
export async function listSubscriptions(
  db: Kysely<Database>,
  channelId?: number,
): Promise<(Subscription & { feed: StoredFeed })[]> {
  let query = db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
    .selectAll('feeds')
    .select([
      'subscriptions.id as subscription_id',
      'subscriptions.channel_id as subscription_channel_id',
      'subscriptions.created_at as subscription_created_at',
    ]);
  if (channelId !== undefined) query = query.where('subscriptions.channel_id', '=', channelId);
  const rows = await query
    .orderBy('channels.position')
    .orderBy('channels.id')
    .orderBy('subscriptions.id')
    .execute();
  return rows.map(({ subscription_id, subscription_channel_id, subscription_created_at, ...feed }) => ({
    id: subscription_id,
    channelId: subscription_channel_id,
    feedId: feed.id,
    createdAt: subscription_created_at,
    feed: feedFromRow(feed),
  }));
}

/** Which subscriptions a query lists: those of one channel, or of some feeds (all when absent). */
export interface SubscriptionFilter {
  channelId?: number | undefined;
  feedIds?: readonly number[] | undefined;
}

/** A subscription as the reader's sidebar and views need it: which channel follows which feed, and its name. */
export interface SubscriptionRef {
  channelId: number;
  feedId: number;
  /** The feed has an icon to show (/icons/ID). */
  hasIcon: boolean;
  title?: string;
  url: string;
  /** The feed's unread entries in the channel (the kept count). */
  unread: number;
}

/**
 * Every subscription with only its feed's title and URL, by channel order then age. The reading pages ask
 * it on every request: reading every feed column (their diagnostics JSON above all) took 50-80 ms at
 * 2,000 feeds, this takes a few.
 */
export async function listSubscriptionRefs(
  db: Kysely<Database>,
  only: SubscriptionFilter = {},
): Promise<SubscriptionRef[]> {
  if (only.feedIds?.length === 0) return [];
  let query = db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
    .leftJoin('unread_counts', (join) =>
      join
        .onRef('unread_counts.channel_id', '=', 'subscriptions.channel_id')
        .onRef('unread_counts.feed_id', '=', 'subscriptions.feed_id'),
    )
    .select([
      'subscriptions.channel_id',
      'subscriptions.feed_id',
      'feeds.title',
      'feeds.url',
      'unread_counts.unread',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('feed_icons')
            .select('feed_icons.feed_id')
            .whereRef('feed_icons.feed_id', '=', 'subscriptions.feed_id')
            .where('feed_icons.content_type', '!=', ''),
        )
        .as('has_icon'),
    );
  if (only.channelId !== undefined) query = query.where('subscriptions.channel_id', '=', only.channelId);
  if (only.feedIds !== undefined)
    query = query.where('subscriptions.feed_id', 'in', [...new Set(only.feedIds)]);
  const rows = await query
    .orderBy('channels.position')
    .orderBy('channels.id')
    .orderBy('subscriptions.id')
    .execute();
  return rows.map((row) => ({
    channelId: row.channel_id,
    feedId: row.feed_id,
    url: row.url,
    hasIcon: Boolean(row.has_icon),
    unread: Number(row.unread ?? 0),
    ...(row.title === null ? {} : { title: row.title }),
  }));
}
