import type { Selectable, Updateable } from 'kysely';
import { StoreArea } from '../area.js';
import type { WebSubSubscriptionTable } from '../schema.js';
import { rowCount, toIso, toIsoOrNull } from '../values.js';
import type { DuePushSubscription, PushSubscription, PushSubscriptionPatch } from './types.js';

/** The subscription a row holds; NULL columns become absent fields. */
function subscriptionFromRow(row: Selectable<WebSubSubscriptionTable>): PushSubscription {
  return {
    feedId: row.feed_id,
    token: row.token,
    secret: row.secret,
    hub: row.hub,
    topic: row.topic,
    state: row.state,
    ...(row.pending_mode === null ? {} : { pendingMode: row.pending_mode }),
    requestedAt: row.requested_at,
    ...(row.lease_seconds === null ? {} : { leaseSeconds: row.lease_seconds }),
    ...(row.verified_at === null ? {} : { verifiedAt: row.verified_at }),
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
    ...(row.next_action_at === null ? {} : { nextActionAt: row.next_action_at }),
    ...(row.message === null ? {} : { message: row.message }),
    ...(row.unreliable_at === null ? {} : { unreliableAt: row.unreliable_at }),
    ...(row.last_delivery_at === null ? {} : { lastDeliveryAt: row.last_delivery_at }),
  };
}

const TIME_FIELDS = {
  requestedAt: 'requested_at',
  verifiedAt: 'verified_at',
  expiresAt: 'expires_at',
  nextActionAt: 'next_action_at',
  unreliableAt: 'unreliable_at',
  lastDeliveryAt: 'last_delivery_at',
} as const;

const PLAIN_FIELDS = {
  token: 'token',
  secret: 'secret',
  hub: 'hub',
  topic: 'topic',
  state: 'state',
  pendingMode: 'pending_mode',
  leaseSeconds: 'lease_seconds',
  message: 'message',
} as const;

/** The columns a patch sets (a field given as null clears its column). */
function patchToRow(patch: PushSubscriptionPatch): Updateable<WebSubSubscriptionTable> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(TIME_FIELDS)) {
    const value = patch[field as keyof typeof TIME_FIELDS];
    if (value !== undefined) row[column] = toIsoOrNull(value, field);
  }
  for (const [field, column] of Object.entries(PLAIN_FIELDS)) {
    const value = patch[field as keyof typeof PLAIN_FIELDS];
    if (value !== undefined) row[column] = value;
  }
  return row as Updateable<WebSubSubscriptionTable>;
}

/**
 * Each feed's WebSub subscription (issue 26), the instance's as feeds are: whichever process polls a
 * feed subscribes it, whichever process a hub reaches answers it. Work that must be done once (a renewal,
 * an unsubscription) is taken by moving `next_action_at` from the value seen (`update`'s `ifNextActionAt`).
 */
export class WebSubscriptions extends StoreArea {
  /** The feed's subscription, if it has one. */
  async get(feedId: number): Promise<PushSubscription | undefined> {
    const row = await this.db
      .selectFrom('websub_subscriptions')
      .selectAll()
      .where('feed_id', '=', feedId)
      .executeTakeFirst();
    return row === undefined ? undefined : subscriptionFromRow(row);
  }

  /** The subscription whose callback ends in this token. */
  async byToken(token: string): Promise<PushSubscription | undefined> {
    const row = await this.db
      .selectFrom('websub_subscriptions')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirst();
    return row === undefined ? undefined : subscriptionFromRow(row);
  }

  /** Every subscription, by feed id. */
  async list(): Promise<PushSubscription[]> {
    const rows = await this.db.selectFrom('websub_subscriptions').selectAll().orderBy('feed_id').execute();
    return rows.map(subscriptionFromRow);
  }

  /** Writes the feed's subscription, replacing the one it had (a new hub, topic, token and secret). */
  async put(subscription: PushSubscription): Promise<void> {
    const { feedId, ...fields } = subscription;
    const row = {
      feed_id: feedId,
      token: fields.token,
      secret: fields.secret,
      hub: fields.hub,
      topic: fields.topic,
      state: fields.state,
      pending_mode: fields.pendingMode ?? null,
      requested_at: toIso(fields.requestedAt, 'requestedAt'),
      lease_seconds: fields.leaseSeconds ?? null,
      verified_at: toIsoOrNull(fields.verifiedAt, 'verifiedAt'),
      expires_at: toIsoOrNull(fields.expiresAt, 'expiresAt'),
      next_action_at: toIsoOrNull(fields.nextActionAt, 'nextActionAt'),
      message: fields.message ?? null,
      unreliable_at: toIsoOrNull(fields.unreliableAt, 'unreliableAt'),
      last_delivery_at: toIsoOrNull(fields.lastDeliveryAt, 'lastDeliveryAt'),
    };
    const { feed_id: _, ...update } = row;
    await this.db
      .insertInto('websub_subscriptions')
      .values(row)
      .onConflict((oc) => oc.column('feed_id').doUpdateSet(update))
      .execute();
  }

  /**
   * Changes the subscription that has this token; with `ifNextActionAt` (null: none) only while its
   * next_action_at is still that (a claim). Returns whether a row changed.
   */
  async update(
    token: string,
    patch: PushSubscriptionPatch,
    options: { ifNextActionAt?: string | null } = {},
  ): Promise<boolean> {
    const row = patchToRow(patch);
    if (Object.keys(row).length === 0) return false;
    let query = this.db.updateTable('websub_subscriptions').set(row).where('token', '=', token);
    const seen = options.ifNextActionAt;
    if (seen === null) query = query.where('next_action_at', 'is', null);
    else if (seen !== undefined) query = query.where('next_action_at', '=', seen);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the subscription that has this token; returns whether there was one. */
  async remove(token: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('websub_subscriptions')
      .where('token', '=', token)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The subscriptions that need the keeper: those due (`next_action_at` passed), and those of feeds no
   * one follows any more that are not being unsubscribed yet.
   */
  async due(now: string, limit: number): Promise<DuePushSubscription[]> {
    const rows = await this.db
      .selectFrom('websub_subscriptions as w')
      .innerJoin('feeds as f', 'f.id', 'w.feed_id')
      .selectAll('w')
      .select('f.unfollowed_at')
      .where((eb) =>
        eb.or([
          eb('w.next_action_at', '<=', toIso(now, 'now')),
          eb.and([
            eb('f.unfollowed_at', 'is not', null),
            eb('w.state', 'in', ['pending', 'active']),
            eb.or([eb('w.pending_mode', 'is', null), eb('w.pending_mode', '!=', 'unsubscribe')]),
          ]),
        ]),
      )
      .orderBy('w.next_action_at')
      .limit(rowCount(limit))
      .execute();
    return rows.map(({ unfollowed_at, ...row }) => ({
      ...subscriptionFromRow(row),
      unfollowed: unfollowed_at !== null,
    }));
  }
}
