import { type Kysely, type SqlBool, sql } from 'kysely';
import { flag } from '../channel-entries.js';
import type { Database } from '../schema.js';

type Dialect = 'sqlite' | 'postgres';

// "All unread" counts each entry once, as its list shows it (issue 22): the sum of the channels' kept
// counts counted an entry twice when two channels follow its feed. The kept (channel, feed) counts
// give the feeds one channel follows; only the unread rows of feeds that several channels show unread
// are read, from the partial index of unread rows (migration 0009), and counted once each. A reader
// who follows each feed once pays two sums over unread_counts, whatever the number of entries.

/** How many entries "All unread" lists: entries some channel shows and has not read, each once. */
export async function allUnreadCount(db: Kysely<Database>, dialect: Dialect): Promise<number> {
  const no = flag(dialect, false);
  const shared = db
    .selectFrom('unread_counts')
    .select('unread_counts.feed_id')
    .where('unread_counts.unread', '>', 0)
    .groupBy('unread_counts.feed_id')
    .having((h) => h.fn.countAll(), '>=', 2);
  const [single, distinct] = await Promise.all([
    db
      .selectFrom('unread_counts')
      .select((s) => s.fn.sum<number | string>('unread_counts.unread').as('n'))
      .where('unread_counts.feed_id', 'not in', shared)
      .executeTakeFirst(),
    db
      .selectFrom('channel_entries')
      .select((s) => s.fn.count('channel_entries.entry_id').distinct().as('n'))
      .where(
        sql<SqlBool>`channel_entries.is_read = ${no} AND channel_entries.is_removed = ${no} AND channel_entries.is_hidden = ${no}`,
      )
      .where('channel_entries.feed_id', 'in', shared)
      .executeTakeFirst(),
  ]);
  return Number(single?.n ?? 0) + Number(distinct?.n ?? 0);
}
