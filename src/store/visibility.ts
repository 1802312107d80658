import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { flag } from './channel-entries.js';
import type { KeyColumns } from './paging.js';
import type { Database } from './schema.js';

// What a channel shows, read from channel_entries: its rows are the entries of the feeds the channel
// follows, with removed and hidden (muted, blocked) worked out when they were written. The timeline and
// search share these queries, so that a muted entry is hidden and uncounted alike. The conditions are
// written with literals, as the partial indexes of migration 0006 are, so that both databases use them.

type Dialect = 'sqlite' | 'postgres';

/** The entry keys a page query selects. */
export type KeyQuery<TB extends keyof Database> = SelectQueryBuilder<
  Database,
  TB,
  { id: number; sort_at: string }
>;

/** The sort columns of a channel_entries page. */
export const CHANNEL_KEYS: KeyColumns = { sortAt: 'channel_entries.sort_at', id: 'channel_entries.entry_id' };

/** SQL: the channel_entries row (of alias `table`) is shown: neither removed nor hidden. */
function shownSql(dialect: Dialect, table: string) {
  const no = flag(dialect, false);
  return sql<SqlBool>`${sql.ref(`${table}.is_removed`)} = ${no} AND ${sql.ref(`${table}.is_hidden`)} = ${no}`;
}

/**
 * The entries a channel's timeline shows (of its subscribed feeds, or of one of them), optionally only
 * the unread ones, as channel_entries keys (page them with CHANNEL_KEYS).
 */
export function channelEntryKeys(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  options: { feedId?: number | undefined; unreadOnly?: boolean | undefined } = {},
): KeyQuery<'channel_entries'> {
  let query = db
    .selectFrom('channel_entries')
    .select(['channel_entries.entry_id as id', 'channel_entries.sort_at'])
    .where('channel_entries.channel_id', '=', channelId)
    .where(shownSql(dialect, 'channel_entries'));
  if (options.feedId !== undefined) query = query.where('channel_entries.feed_id', '=', options.feedId);
  if (options.unreadOnly === true)
    query = query.where(sql<SqlBool>`channel_entries.is_read = ${flag(dialect, false)}`);
  return query;
}

/** The entries that at least one channel shows (each once, however many channels follow its feed). */
export function anyChannelEntryKeys(db: Kysely<Database>, dialect: Dialect): KeyQuery<'entries'> {
  return db
    .selectFrom('entries')
    .select(['entries.id', 'entries.sort_at'])
    .where((outer) =>
      outer.exists(
        outer
          .selectFrom('channel_entries as shown')
          .select('shown.entry_id')
          .whereRef('shown.entry_id', '=', 'entries.id')
          .where(shownSql(dialect, 'shown')),
      ),
    );
}
