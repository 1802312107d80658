import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Channel, StoredFeed, Subscription } from '../../model/index.js';
import { changing, StoreArea } from '../area.js';
import * as shown from '../channel-entries.js';
import { runTemplate } from '../query-template.js';
import { channelFromRow, feedFromRow, subscriptionFromRow } from '../rows.js';
import type { ChannelTable, Database } from '../schema.js';
import { StoreError } from '../store-error.js';
import { NOTIFICATIONS_UID, type SubscriptionFilter, type SubscriptionRef } from '../types.js';
import { toIso } from '../values.js';

type Flag = 'is_read' | 'is_removed';

/** Copies a feed's entry states from one channel to another, keeping a flag already set in the target. */
async function copyStates(
  db: Kysely<Database>,
  feedId: number,
  fromChannelId: number,
  toChannelId: number,
  now: string,
): Promise<void> {
  const states = db
    .selectFrom('entry_states')
    .innerJoin('entries', 'entries.id', 'entry_states.entry_id')
    .select((s) => [
      s.val(toChannelId).as('channel_id'),
      'entry_states.entry_id',
      'entry_states.is_read',
      'entry_states.is_removed',
      s.val(now).as('updated_at'),
    ])
    .where('entry_states.channel_id', '=', fromChannelId)
    .where('entries.feed_id', '=', feedId);
  await db
    .insertInto('entry_states')
    .columns(['channel_id', 'entry_id', 'is_read', 'is_removed', 'updated_at'])
    .expression(states)
    .onConflict((conflict) =>
      conflict.columns(['channel_id', 'entry_id']).doUpdateSet((update) => {
        const either = (flag: Flag) =>
          update
            .case()
            .when(`entry_states.${flag}`, '=', update.lit(true))
            .then(update.ref(`entry_states.${flag}`))
            .else(update.ref(`excluded.${flag}`))
            .end();
        return {
          is_read: either('is_read'),
          is_removed: either('is_removed'),
          updated_at: update.ref('excluded.updated_at'),
        };
      }),
    )
    .execute();
}

/** The channels in their order, and which feeds each follows (subscriptions). */
export class Channels extends StoreArea {
  /** Returns the channels in their order. */
  async list(): Promise<Channel[]> {
    const db = this.db;
    const rows = await db.selectFrom('channels').selectAll().orderBy('position').orderBy('id').execute();
    return rows.map(channelFromRow);
  }

  /** Creates a channel after the others; throws a `conflict` StoreError when the uid is taken. */
  async create(name: string, uid: string = randomUUID()): Promise<Channel> {
    const db = this.db;
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

  /** Returns the channel with this uid, if any. Compiled once (query-template.ts): most Microsub requests ask it. */
  async get(uid: string): Promise<Channel | undefined> {
    const db = this.db;
    const dialect = this.dialect;
    const { rows } = await runTemplate<Selectable<ChannelTable>>(db, `${dialect}:get-channel`, [uid], () =>
      db.selectFrom('channels').selectAll().where('uid', '=', uid),
    );
    const row = rows[0];
    return row === undefined ? undefined : channelFromRow(row);
  }

  /** Renames a channel; throws a `not_found` StoreError when there is none with this uid. */
  async rename(uid: string, name: string): Promise<void> {
    const db = this.db;
    const result = await db.updateTable('channels').set({ name }).where('uid', '=', uid).executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new StoreError('not_found', `store: no channel ${uid}`);
  }

  /** Deletes a channel with its subscriptions, entry states and filters; an unknown uid changes nothing. */
  async delete(uid: string): Promise<void> {
    const db = this.db;
    if (uid === NOTIFICATIONS_UID)
      throw new StoreError('invalid', 'store: the notifications channel cannot be deleted');
    await db.deleteFrom('channels').where('uid', '=', uid).execute();
  }

  /**
   * Puts the channels `uids` first (after notifications, which stays on top), in that order; the others
   * keep their relative order after them. Unknown uids are ignored. Positions are renumbered from 0.
   */
  async order(uids: readonly string[]): Promise<void> {
    const db = this.db;
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
      const ordered = [...rows].sort(
        (a, b) => (rank.get(a.uid) ?? rank.size) - (rank.get(b.uid) ?? rank.size),
      );
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
  subscribe(channelId: number, feedId: number, now: string): Promise<Subscription> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
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
    });
  }

  /** Removes a channel's subscription to a feed; the feed itself stays. */
  unsubscribe(channelId: number, feedId: number): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [channelId], async () => {
      await db.transaction().execute(async (trx) => {
        await shown.lockFeed(trx, dialect, feedId);
        await trx
          .deleteFrom('subscriptions')
          .where('channel_id', '=', channelId)
          .where('feed_id', '=', feedId)
          .execute();
        await shown.dropSubscription(trx, channelId, feedId);
      });
    });
  }

  /** Returns subscriptions with their feeds, in one channel or all, by channel order then age. */
  async listSubscriptions(channelId?: number): Promise<(Subscription & { feed: StoredFeed })[]> {
    const db = this.db;
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

  /**
   * Every subscription with only its feed's title and URL, by channel order then age. The reading pages ask
   * it on every request: reading every feed column (their diagnostics JSON above all) took 50-80 ms at
   * 2,000 feeds, this takes a few.
   */
  async listSubscriptionRefs(only: SubscriptionFilter = {}): Promise<SubscriptionRef[]> {
    const db = this.db;
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

  /**
   * Moves a feed's subscription from one channel to another with the feed's entry states: an entry read
   * (or removed) in either channel is read (or removed) in the target. A feed the first channel does not
   * follow: StoreError 'not_found'.
   */
  moveSubscription(feedId: number, fromChannelId: number, toChannelId: number, now: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    return changing(this.area, [fromChannelId, toChannelId], async () => {
      const at = toIso(now, 'now');
      if (fromChannelId === toChannelId) return;
      await db.transaction().execute(async (trx) => {
        await shown.lockFeed(trx, dialect, feedId);
        const moved = await trx
          .deleteFrom('subscriptions')
          .where('channel_id', '=', fromChannelId)
          .where('feed_id', '=', feedId)
          .executeTakeFirst();
        if (moved.numDeletedRows === 0n)
          throw new StoreError('not_found', `store: channel ${fromChannelId} does not follow feed ${feedId}`);
        await trx
          .insertInto('subscriptions')
          .values({ channel_id: toChannelId, feed_id: feedId, created_at: at })
          .onConflict((conflict) => conflict.columns(['channel_id', 'feed_id']).doNothing())
          .execute();
        await copyStates(trx, feedId, fromChannelId, toChannelId, at);
        await shown.dropSubscription(trx, fromChannelId, feedId);
        // The target may have followed the feed already: its rows are written again from the merged states.
        await shown.dropSubscription(trx, toChannelId, feedId);
        await shown.addSubscription(trx, dialect, toChannelId, feedId);
      });
    });
  }
}
