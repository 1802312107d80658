import { expressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ChannelCount } from './reader.js';
import type { Database } from './schema.js';
import { StoreError } from './store-error.js';
import { chunk, toDbBool, toIso } from './values.js';
import { hasState, isFiltered } from './visibility.js';

// Read and removed state per channel and entry. No row means unread and shown; rows are written with
// INSERT ... SELECT ... ON CONFLICT DO UPDATE, so marking a whole channel is one statement.

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
 * Marks read, in one statement, the entry and every entry of the channel's feeds that sorts at or below
 * it (by sort time, then id), skipping those already read. An unknown entry changes nothing.
 */
export async function markReadUpTo(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  entryId: number,
  now: string,
): Promise<void> {
  const target = await db
    .selectFrom('entries')
    .select(['sort_at', 'id'])
    .where('id', '=', entryId)
    .executeTakeFirst();
  if (target === undefined) return;
  const entries = db
    .selectFrom('entries')
    .innerJoin('subscriptions', 'subscriptions.feed_id', 'entries.feed_id')
    .where('subscriptions.channel_id', '=', channelId)
    .where(eb(eb.refTuple('entries.sort_at', 'entries.id'), '<=', eb.tuple(target.sort_at, target.id)))
    .where(eb.not(hasState(['is_read'])));
  await upsertStates(db, dialect, entries, { channelId, flag: 'is_read', value: true, now });
}

/** Hides every stored entry of a feed from a channel's timeline. */
export async function removeFeedEntries(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  feedId: number,
  now: string,
): Promise<void> {
  const entries = db.selectFrom('entries').where('entries.feed_id', '=', feedId);
  await upsertStates(db, dialect, entries, { channelId, flag: 'is_removed', value: true, now });
}

/**
 * Moves a feed's subscription from one channel to another with the feed's entry states: an entry read
 * (or removed) in either channel is read (or removed) in the target. A feed the first channel does not
 * follow: StoreError 'not_found'.
 */
export async function moveSubscription(
  db: Kysely<Database>,
  feedId: number,
  fromChannelId: number,
  toChannelId: number,
  now: string,
): Promise<void> {
  const at = toIso(now, 'now');
  if (fromChannelId === toChannelId) return;
  await db.transaction().execute(async (trx) => {
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

/**
 * Every channel's count of unread entries, in channel order: entries of its feeds neither read nor
 * removed there nor muted or blocked. One query with a counting subquery per channel.
 */
export async function unreadCounts(db: Kysely<Database>): Promise<ChannelCount[]> {
  const rows = await db
    .selectFrom('channels')
    .select((outer) => [
      'channels.id',
      outer
        .selectFrom('subscriptions')
        .innerJoin('entries', 'entries.feed_id', 'subscriptions.feed_id')
        .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
        .select((count) => count.fn.countAll().as('unread'))
        .whereRef('subscriptions.channel_id', '=', 'channels.id')
        .where(outer.not(hasState(['is_read', 'is_removed'])))
        .where(outer.not(isFiltered()))
        .as('unread'),
    ])
    .orderBy('channels.position')
    .orderBy('channels.id')
    .execute();
  return rows.map((row) => ({ channelId: row.id, unread: Number(row.unread ?? 0) }));
}
