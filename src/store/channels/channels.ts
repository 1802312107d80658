import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Channel, StoredFeed, Subscription } from '../../model/index.js';
import { changing, StoreArea } from '../area.js';
import * as shown from '../channel-entries.js';
import { isFollowed } from '../claim.js';
import { runTemplate } from '../query-template.js';
import { channelFromRow, feedFromRow, subscriptionFromRow } from '../rows.js';
import type { ChannelTable, Database, DbBool } from '../schema.js';
import { StoreError } from '../store-error.js';
import { type Dialect, NOTIFICATIONS_UID, type SubscriptionFilter, type SubscriptionRef } from '../types.js';
import { chunk, fromDbBool, toDbBool, toIso } from '../values.js';

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

/** A follower's own settings of a feed. */
export interface FollowerSettings {
  title?: string;
  paused: boolean;
}

/** The feed as its follower sees it: with their title (when they set one) and their pause. */
function followedFeed(feed: StoredFeed, own: { title: string | null; paused: DbBool }): StoredFeed {
  const seen: StoredFeed = { ...feed, paused: fromDbBool(own.paused) };
  if (own.title !== null) {
    seen.title = own.title;
    seen.customTitle = own.title;
  } else delete seen.customTitle;
  return seen;
}

async function isOwnChannel(db: Kysely<Database>, userId: number, channelId: number): Promise<boolean> {
  const row = await db
    .selectFrom('channels')
    .select('id')
    .where('id', '=', channelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Throws StoreError 'not_found' unless the channel is the user's: another user's is as good as missing. */
async function ownChannel(db: Kysely<Database>, userId: number, channelId: number): Promise<void> {
  if (!(await isOwnChannel(db, userId, channelId)))
    throw new StoreError('not_found', `store: no channel ${channelId}`);
}

/**
 * Keeps feeds.paused true exactly when every subscription of the feed is paused, so that the poller's
 * claim reads one column: a feed is polled while any follower has it unpaused. A feed nobody follows
 * keeps its flag (it is not polled either way).
 */
export async function keepPaused(
  db: Kysely<Database>,
  dialect: Dialect,
  feedIds: readonly number[],
): Promise<void> {
  for (const ids of chunk(feedIds, 500))
    await db
      .updateTable('feeds')
      .set((eb) => ({
        paused: eb.not(
          eb.exists(
            eb
              .selectFrom('subscriptions')
              .select('subscriptions.id')
              .whereRef('subscriptions.feed_id', '=', 'feeds.id')
              .where('subscriptions.paused', '=', toDbBool(false, dialect)),
          ),
        ),
      }))
      .where('id', 'in', ids)
      .where(isFollowed)
      .execute();
}

/** The user's channels in their order, and which feeds each follows (subscriptions). */
export class Channels extends StoreArea {
  /** Returns the user's channels in their order. */
  async list(): Promise<Channel[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('channels')
      .selectAll()
      .where('user_id', '=', this.userId)
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map(channelFromRow);
  }

  /** Creates a channel after the user's others; throws a `conflict` StoreError when the user has the uid. */
  async create(name: string, uid: string = randomUUID()): Promise<Channel> {
    const db = this.db;
    const userId = this.userId;
    return db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('channels')
        .select('id')
        .where('user_id', '=', userId)
        .where('uid', '=', uid)
        .executeTakeFirst();
      if (taken !== undefined) throw new StoreError('conflict', `store: channel ${uid} exists`);
      await refuseTakenName(trx, userId, name);
      const last = await trx
        .selectFrom('channels')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const row = await trx
        .insertInto('channels')
        .values({ user_id: userId, uid, name, position: (last?.position ?? -1) + 1 })
        .returningAll()
        .executeTakeFirstOrThrow();
      return channelFromRow(row);
    });
  }

  /**
   * Returns the user's channel with this uid, if any. Compiled once (query-template.ts): most Microsub
   * requests ask it.
   */
  async get(uid: string): Promise<Channel | undefined> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    const { rows } = await runTemplate<Selectable<ChannelTable>>(
      db,
      `${dialect}:get-channel`,
      [userId, uid],
      () => db.selectFrom('channels').selectAll().where('user_id', '=', userId).where('uid', '=', uid),
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    this.area.owners.learn(row.id, userId);
    return channelFromRow(row);
  }

  /** Renames a channel; throws a `not_found` StoreError when there is none with this uid. */
  async rename(uid: string, name: string): Promise<void> {
    const userId = this.userId;
    await this.db.transaction().execute(async (trx) => {
      await refuseTakenName(trx, userId, name, uid);
      const result = await trx
        .updateTable('channels')
        .set({ name })
        .where('user_id', '=', userId)
        .where('uid', '=', uid)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new StoreError('not_found', `store: no channel ${uid}`);
    });
  }

  /** Deletes a channel with its subscriptions, entry states and filters; an unknown uid changes nothing. */
  async delete(uid: string): Promise<void> {
    const db = this.db;
    if (uid === NOTIFICATIONS_UID)
      throw new StoreError('invalid', 'store: the notifications channel cannot be deleted');
    await db.deleteFrom('channels').where('user_id', '=', this.userId).where('uid', '=', uid).execute();
  }

  /**
   * Reorders the channels `uids` among themselves (Microsub spec, "Set Channel Order": only the order of
   * the channels named changes): they take the places they held, in the order given, and every other
   * channel keeps its place. So two neighbours swap, as a client's "move up" sends them, and the whole
   * list sets the whole order. Notifications stays on top. Unknown uids are ignored. Positions are
   * renumbered from 0.
   */
  async order(uids: readonly string[]): Promise<void> {
    const db = this.db;
    await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('channels')
        .select(['id', 'uid', 'position'])
        .where('user_id', '=', this.userId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      const notifications = rows.filter((row) => row.uid === NOTIFICATIONS_UID);
      const others = rows.filter((row) => row.uid !== NOTIFICATIONS_UID);
      const byUid = new Map(others.map((row) => [row.uid, row]));
      const listed = [...new Set(uids)].filter((uid) => byUid.has(uid));
      const wanted = new Set(listed);
      const slots = others.flatMap((row, i) => (wanted.has(row.uid) ? [i] : []));
      const ordered = [...others];
      listed.forEach((uid, k) => {
        ordered[slots[k] as number] = byUid.get(uid) as (typeof others)[number];
      });
      for (const [position, row] of [...notifications, ...ordered].entries()) {
        if (row.position === position) continue;
        await trx.updateTable('channels').set({ position }).where('id', '=', row.id).execute();
      }
    });
  }

  /**
   * Subscribes one of the user's channels to a feed, or returns the subscription that exists. The feed's
   * stored entries join the channel's timeline and unread count in the same transaction. Another user's
   * channel: StoreError 'not_found'.
   */
  subscribe(channelId: number, feedId: number, now: string): Promise<Subscription> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    return changing(this.area, [channelId], async () => {
      const at = toIso(now, 'now');
      await db.transaction().execute(async (trx) => {
        await ownChannel(trx, userId, channelId);
        await shown.lockFeed(trx, dialect, feedId);
        // a second channel of the same user follows the feed as the first does: same title, same pause
        const own = await trx
          .selectFrom('subscriptions')
          .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
          .select(['subscriptions.title', 'subscriptions.paused'])
          .where('channels.user_id', '=', userId)
          .where('subscriptions.feed_id', '=', feedId)
          .orderBy('subscriptions.id')
          .executeTakeFirst();
        await trx
          .insertInto('subscriptions')
          .values({
            channel_id: channelId,
            feed_id: feedId,
            created_at: at,
            title: own?.title ?? null,
            paused: own?.paused ?? toDbBool(false, dialect),
          })
          .onConflict((conflict) => conflict.columns(['channel_id', 'feed_id']).doNothing())
          .execute();
        // followed again: no longer unfollowed (sweepUnfollowed would say so at the next run; at once here)
        await trx
          .updateTable('feeds')
          .set({ unfollowed_at: null })
          .where('id', '=', feedId)
          .where('unfollowed_at', 'is not', null)
          .execute();
        // what the person read where they follow it already is read here too
        if (own) await shown.carryReadState(trx, dialect, userId, channelId, feedId, at);
        // Rows that exist stay: subscribing again changes nothing.
        await shown.addSubscription(trx, dialect, channelId, feedId);
        await keepPaused(trx, dialect, [feedId]);
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

  /** Removes a channel's subscription to a feed; the feed itself stays. Another user's channel: nothing. */
  unsubscribe(channelId: number, feedId: number): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    return changing(this.area, [channelId], async () => {
      await db.transaction().execute(async (trx) => {
        if (!(await isOwnChannel(trx, userId, channelId))) return;
        await shown.lockFeed(trx, dialect, feedId);
        await trx
          .deleteFrom('subscriptions')
          .where('channel_id', '=', channelId)
          .where('feed_id', '=', feedId)
          .execute();
        await shown.dropSubscription(trx, dialect, channelId, feedId);
        await keepPaused(trx, dialect, [feedId]);
      });
    });
  }

  /**
   * How the user follows a feed: its title and pause (the first of the user's subscriptions of it), or
   * undefined when none of the user's channels follows it.
   */
  async follows(feedId: number): Promise<FollowerSettings | undefined> {
    const row = await this.db
      .selectFrom('subscriptions')
      .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
      .select(['subscriptions.title', 'subscriptions.paused'])
      .where('channels.user_id', '=', this.userId)
      .where('subscriptions.feed_id', '=', feedId)
      .orderBy('subscriptions.id')
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return { paused: fromDbBool(row.paused), ...(row.title === null ? {} : { title: row.title }) };
  }

  /** How many users other than this one follow the feed. */
  async otherFollowers(feedId: number): Promise<number> {
    const row = await this.db
      .selectFrom('subscriptions')
      .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
      .select((eb) => eb.fn.count('channels.user_id').distinct().as('n'))
      .where('subscriptions.feed_id', '=', feedId)
      .where('channels.user_id', '!=', this.userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Sets the user's own title (null: the feed's) and pause of a feed, on each of the user's subscriptions
   * of it; the feed is polled while any follower has it unpaused. False when the user does not follow it.
   */
  async setFollowerSettings(
    feedId: number,
    settings: { title?: string | null | undefined; paused?: boolean | undefined },
  ): Promise<boolean> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    return db.transaction().execute(async (trx) => {
      const patch: { title?: string | null; paused?: DbBool } = {};
      if (settings.title !== undefined) patch.title = settings.title;
      if (settings.paused !== undefined) patch.paused = toDbBool(settings.paused, dialect);
      const mine = trx.selectFrom('channels').select('channels.id').where('channels.user_id', '=', userId);
      if (Object.keys(patch).length === 0) {
        const row = await trx
          .selectFrom('subscriptions')
          .select('id')
          .where('feed_id', '=', feedId)
          .where('channel_id', 'in', mine)
          .executeTakeFirst();
        return row !== undefined;
      }
      const result = await trx
        .updateTable('subscriptions')
        .set(patch)
        .where('feed_id', '=', feedId)
        .where('channel_id', 'in', mine)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await keepPaused(trx, dialect, [feedId]);
      return true;
    });
  }

  /**
   * Returns the user's subscriptions with their feeds, in one channel or all, by channel order then age.
   * Each feed carries the user's own title and pause.
   */
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
        'subscriptions.title as subscription_title',
        'subscriptions.paused as subscription_paused',
      ])
      .where('channels.user_id', '=', this.userId);
    if (channelId !== undefined) query = query.where('subscriptions.channel_id', '=', channelId);
    const rows = await query
      .orderBy('channels.position')
      .orderBy('channels.id')
      .orderBy('subscriptions.id')
      .execute();
    return rows.map(
      ({
        subscription_id,
        subscription_channel_id,
        subscription_created_at,
        subscription_title,
        subscription_paused,
        ...feed
      }) => ({
        id: subscription_id,
        channelId: subscription_channel_id,
        feedId: feed.id,
        createdAt: subscription_created_at,
        feed: followedFeed(feedFromRow(feed), { title: subscription_title, paused: subscription_paused }),
      }),
    );
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
        'subscriptions.title as own_title',
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
    query = query.where('channels.user_id', '=', this.userId);
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
      ...((row.own_title ?? row.title) === null ? {} : { title: row.own_title ?? row.title ?? '' }),
    }));
  }

  /**
   * Moves a feed's subscription from one channel to another with the feed's entry states: an entry read
   * (or removed) in either channel is read (or removed) in the target; the user's title and pause go
   * along. A feed the first channel does not follow, or a channel of another user: StoreError 'not_found'.
   */
  moveSubscription(feedId: number, fromChannelId: number, toChannelId: number, now: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    return changing(this.area, [fromChannelId, toChannelId], async () => {
      const at = toIso(now, 'now');
      if (fromChannelId === toChannelId) return;
      await db.transaction().execute(async (trx) => {
        await ownChannel(trx, userId, fromChannelId);
        await ownChannel(trx, userId, toChannelId);
        await shown.lockFeed(trx, dialect, feedId);
        const moved = await trx
          .deleteFrom('subscriptions')
          .where('channel_id', '=', fromChannelId)
          .where('feed_id', '=', feedId)
          .returning(['title', 'paused'])
          .executeTakeFirst();
        if (moved === undefined)
          throw new StoreError('not_found', `store: channel ${fromChannelId} does not follow feed ${feedId}`);
        await trx
          .insertInto('subscriptions')
          .values({
            channel_id: toChannelId,
            feed_id: feedId,
            created_at: at,
            title: moved.title,
            paused: moved.paused,
          })
          .onConflict((conflict) => conflict.columns(['channel_id', 'feed_id']).doNothing())
          .execute();
        await copyStates(trx, feedId, fromChannelId, toChannelId, at);
        await shown.dropSubscription(trx, dialect, fromChannelId, feedId);
        // The target may have followed the feed already: its rows are written again from the merged states.
        await shown.dropSubscription(trx, dialect, toChannelId, feedId);
        await shown.addSubscription(trx, dialect, toChannelId, feedId);
      });
    });
  }
}

/**
 * Refuses a channel name another of the person's channels has (`except`: the channel being renamed),
 * whatever its case or surrounding spaces: channels are found by name (`add --channel`, OPML folders,
 * the apps' folders), and two of one name sent those to the first. Microsub's notifications channel is
 * found by its uid only, and the apps never see it: a folder `notifications` is theirs to have (issue 22).
 */
async function refuseTakenName(
  trx: Transaction<Database>,
  userId: number,
  name: string,
  except?: string,
): Promise<void> {
  // a line break or other control character in a name breaks every list that shows it (the CLI's,
  // OPML folders, the apps' labels)
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw new StoreError('invalid', 'store: a channel name is one line of printable characters');
  const wanted = name.trim().toLowerCase();
  const rows = await trx
    .selectFrom('channels')
    .select(['uid', 'name'])
    .where('user_id', '=', userId)
    .execute();
  const taken = rows.find(
    (row) => row.uid !== except && row.uid !== NOTIFICATIONS_UID && row.name.trim().toLowerCase() === wanted,
  );
  if (taken !== undefined)
    throw new StoreError(
      'invalid',
      `store: there is a channel named ${taken.name} already; choose another name`,
    );
}
