import { type Expression, expressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { flag } from './channel-entries.js';
import type { KeyColumns, KeyQuery, PageTemplate } from './paging.js';
import type { Database } from './schema.js';

// What a channel shows, read from channel_entries: its rows are the entries of the feeds the channel
// follows, with removed and hidden (muted, blocked) worked out when they were written. The timeline and
// search share these queries, so that a muted entry is hidden and uncounted alike. The conditions are
// written with literals, as the partial indexes of migration 0006 are, so that both databases use them.

type Dialect = 'sqlite' | 'postgres';

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

/**
 * The page template (paging.ts) of `channelEntryKeys` with these options, as `name` extends it (with
 * joins and columns that bind nothing): its shape is named by which options are set, and it binds the
 * channel, then the feed.
 */
export function channelKeysTemplate(
  db: Kysely<Database>,
  name: string,
  channelId: number,
  options: { feedId?: number | undefined; unreadOnly?: boolean | undefined } = {},
): PageTemplate {
  const { feedId, unreadOnly } = options;
  return {
    db,
    key: `${name}|feed=${feedId !== undefined}|unread=${unreadOnly === true}`,
    values: feedId === undefined ? [channelId] : [channelId, feedId],
  };
}

/**
 * SQL: the entry with id `entryIdColumn` is shown in the channel, or (channelId undefined) in at least
 * one channel of the user.
 */
export function isShownIn(
  dialect: Dialect,
  where: { channelId?: number | undefined; userId: number },
  entryIdColumn: string,
) {
  const inChannel =
    where.channelId === undefined
      ? sql`shown.user_id = ${where.userId} AND `
      : sql`shown.channel_id = ${where.channelId} AND `;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM channel_entries shown WHERE ${inChannel}shown.entry_id = ${sql.ref(entryIdColumn)} AND ${shownSql(dialect, 'shown')})`;
}

/** The entries that at least one channel of the user shows (each once, however many channels follow its feed). */
export function anyChannelEntryKeys(
  db: Kysely<Database>,
  dialect: Dialect,
  userId: number,
): KeyQuery<'entries'> {
  return db
    .selectFrom('entries')
    .select(['entries.id', 'entries.sort_at'])
    .where((outer) =>
      outer.exists(
        outer
          .selectFrom('channel_entries as shown')
          .select('shown.entry_id')
          .whereRef('shown.entry_id', '=', 'entries.id')
          .where('shown.user_id', '=', userId)
          .where(shownSql(dialect, 'shown')),
      ),
    );
}

// The same rules read from the records (entry_states, filters) rather than from channel_entries, for
// queries that start from entries and subscriptions (the sync APIs' streams, the reader's All unread).
// channel_entries is kept from these records; `tidings doctor` checks that both agree.

type EntryScope = 'entries' | 'feeds' | 'subscriptions';
const eb = expressionBuilder<Database, EntryScope>();

/** True when the entry has a state row in the subscription's channel with one of these flags set. */
export function hasState(flags: readonly ('is_read' | 'is_removed')[]): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('entry_states')
      .select('entry_states.entry_id')
      .whereRef('entry_states.channel_id', '=', 'subscriptions.channel_id')
      .whereRef('entry_states.entry_id', '=', 'entries.id')
      .where((state) => state.or(flags.map((flag) => state(`entry_states.${flag}`, '=', state.lit(true))))),
  );
}

/**
 * True when a mute or block rule of the subscription's channel, or a global rule of the user (whose
 * channel it is), names the entry's author URL, its feed's URL or its feed's site URL. URLs compare as
 * stored, exactly.
 */
export function isFiltered(userId: number): Expression<SqlBool> {
  // Written as `url IN (...)` and `COALESCE(channel_id, 0) IN (0, channel)` so that both databases look
  // rules up by URL in filters_rule. The plainer `channel_id IS NULL OR channel_id = ...` made SQLite
  // walk every rule of the channel for each entry: 27 s for unread counts with 1,000 rules and 100,000
  // entries, against 80 ms this way (scale.test.ts). Channel ids start at 1, so 0 means "global".
  return eb.exists(
    eb
      .selectFrom('filters')
      .select('filters.id')
      .where('filters.url', 'in', [
        eb.ref('entries.author_url'),
        eb.ref('feeds.url'),
        eb.ref('feeds.site_url'),
      ])
      .where('filters.user_id', '=', userId)
      .where((rule) =>
        rule(rule.fn.coalesce('filters.channel_id', rule.lit(0)), 'in', [
          rule.lit(0),
          rule.ref('subscriptions.channel_id'),
        ]),
      ),
  );
}

/** True when the subscription's channel (one of the user's) shows the entry: not removed there, not muted or blocked. */
export function isShown(userId: number): Expression<SqlBool> {
  return eb.and([eb.not(hasState(['is_removed'])), eb.not(isFiltered(userId))]);
}
