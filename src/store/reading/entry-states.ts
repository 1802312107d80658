import { expressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import * as shown from '../channel-entries.js';
import type { Database } from '../schema.js';
import { chunk, toDbBool, toIso } from '../values.js';

// Read and removed state per channel and entry. No row means unread and shown; rows are written with
// INSERT ... SELECT ... ON CONFLICT DO UPDATE, so marking a whole channel is one statement. Each change
// is copied to the channel's channel_entries rows and unread counts in the same transaction.

type Dialect = 'sqlite' | 'postgres';
export type Flag = 'is_read' | 'is_removed';

const ID_CHUNK = 500;
const eb = expressionBuilder<Database, 'entries'>();

export interface StateChange {
  channelId: number;
  flag: Flag;
  value: boolean;
  now: string;
}

/**
 * Sets one flag in the channel for every entry `entries` selects, creating state rows as needed (the
 * other flag false) and leaving the other flag of existing rows alone.
 */
export async function upsertStates<TB extends keyof Database>(
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
export async function setFlag(
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
