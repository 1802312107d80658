import { expressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import * as shown from './channel-entries.js';
import type { Database } from './schema.js';
import { StoreError } from './store-error.js';
import { chunk, toDbBool, toIso } from './values.js';

// Read and removed state per channel and entry. No row means unread and shown; rows are written with
// INSERT ... SELECT ... ON CONFLICT DO UPDATE, so marking a whole channel is one statement. Each change
// is copied to the channel's channel_entries rows and unread counts in the same transaction.

type Dialect = 'sqlite' | 'postgres';
type Flag = 'is_read' | 'is_removed';

const ID_CHUNK = 500;
const eb = expressionBuilder<Database, 'entries'>();

interface StateChange {
  channelId: number;
  flag: Flag;
  value: boolean;
  now: string;
}

/**
 * Sets one flag in the channel for every entry `entries` selects, creating state rows as needed (the
 * other flag false) and leaving the other flag of existing rows alone.
 */
async function upsertStates<TB extends keyof Database>(
  db: Kysely<Database>,
  dialect: Dialect,
  entries: SelectQueryBuilder<Database, TB, object>,
  change: StateChange,
): Promise<void> {
  const rows = entries.select([
    eb.val(change.channelId).as('channel_id'),
    eb.ref('entries.id').as('entry_id'),
    eb.val(toDbBool(change.flag === 'is_read' && change.value, dialect)).as('is_read'),
    eb.val(toDbBool(change.flag === 'is_removed' && change.value, dialect)).as('is_removed'),
    eb.val(toIso(change.now, 'now')).as('updated_at'),
  ]);
  await db
    .insertInto('entry_states')
    .columns(['channel_id', 'entry_id', 'is_read', 'is_removed', 'updated_at'])
    .expression(rows)
    .onConflict((conflict) =>
      conflict.columns(['channel_id', 'entry_id']).doUpdateSet((update) => ({
        [change.flag]: update.ref(`excluded.${change.flag}`),
        updated_at: update.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** Sets a flag on the entries with these ids (ids of no entry are skipped), in one transaction. */
async function setFlag(
  db: Kysely<Database>,
  dialect: Dialect,
  entryIds: readonly number[],
  change: StateChange,
): Promise<void> {
  const ids = [...new Set(entryIds)];
  if (ids.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const part of chunk(ids, ID_CHUNK))
      await upsertStates(trx, dialect, trx.selectFrom('entries').where('entries.id', 'in', part), change);
    await shown.setFlag(trx, dialect, change.channelId, { entryIds: ids }, change);
  });
}

/** Marks entries read (or unread) in a channel. */
export function markRead(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  entryIds: readonly number[],
  read: boolean,
  now: string,
): Promise<void> {
  return setFlag(db, dialect, entryIds, { channelId, flag: 'is_read', value: read, now });
}

/** Hides entries from a channel's timeline. */
export function removeEntries(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  entryIds: readonly number[],
  now: string,
): Promise<void> {
  return setFlag(db, dialect, entryIds, { channelId, flag: 'is_removed', value: true, now });
}

/**
 * Marks read the entry and every entry of the channel's feeds that sorts at or below it (by sort time,
 * then id), skipping those already read. An unknown entry changes nothing.
 */
export async function markReadUpTo(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  entryId: number,
  now: string,
): Promise<void> {
  const change: StateChange = { channelId, flag: 'is_read', value: true, now };
  await db.transaction().execute(async (trx) => {
    const target = await trx
      .selectFrom('entries')
      .select(['sort_at', 'id'])
      .where('id', '=', entryId)
      .executeTakeFirst();
    if (target === undefined) return;
    const upTo = { sortAt: target.sort_at, id: target.id };
    const entries = trx
      .selectFrom('entries')
      .innerJoin('subscriptions', 'subscriptions.feed_id', 'entries.feed_id')
      .where('subscriptions.channel_id', '=', channelId)
      .where(eb(eb.refTuple('entries.sort_at', 'entries.id'), '<=', eb.tuple(upTo.sortAt, upTo.id)))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('entry_states')
              .select('entry_states.entry_id')
              .where('entry_states.channel_id', '=', channelId)
              .whereRef('entry_states.entry_id', '=', 'entries.id')
              .where('entry_states.is_read', '=', eb.lit(true)),
          ),
        ),
      );
    await upsertStates(trx, dialect, entries, change);
    await shown.setFlag(trx, dialect, channelId, { upTo }, change);
  });
}

/** Hides every stored entry of a feed from a channel's timeline. */
export async function removeFeedEntries(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  feedId: number,
  now: string,
): Promise<void> {
  const change: StateChange = { channelId, flag: 'is_removed', value: true, now };
  await db.transaction().execute(async (trx) => {
    await upsertStates(trx, dialect, trx.selectFrom('entries').where('entries.feed_id', '=', feedId), change);
    await shown.setFlag(trx, dialect, channelId, { feedId }, change);
  });
}

/**
 * Moves a feed's subscription from one channel to another with the feed's entry states: an entry read
 * (or removed) in either channel is read (or removed) in the target. A feed the first channel does not
 * follow: StoreError 'not_found'.
 */
export async function moveSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  feedId: number,
  fromChannelId: number,
  toChannelId: number,
  now: string,
): Promise<void> {
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
}

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
