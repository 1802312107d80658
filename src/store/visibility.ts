import {
  type Expression,
  expressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from './schema.js';

// What a channel shows, as SQL conditions on a row of entries joined with its feed and with the
// subscription of one channel to that feed. The timeline, unread counts and search share them, so that
// a muted entry is hidden and uncounted alike.

type EntryScope = 'entries' | 'feeds' | 'subscriptions';
const eb = expressionBuilder<Database, EntryScope>();

/** The entry keys a page query selects. */
export type KeyQuery<TB extends keyof Database> = SelectQueryBuilder<
  Database,
  TB,
  { id: number; sort_at: string }
>;

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
 * True when a mute or block rule of the subscription's channel, or a global rule, names the entry's
 * author URL, its feed's URL or its feed's site URL. URLs compare as stored, exactly.
 */
export function isFiltered(): Expression<SqlBool> {
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
      .where((rule) =>
        rule(rule.fn.coalesce('filters.channel_id', rule.lit(0)), 'in', [
          rule.lit(0),
          rule.ref('subscriptions.channel_id'),
        ]),
      ),
  );
}

/** True when the subscription's channel shows the entry: not removed there, not muted or blocked. */
export function isShown(): Expression<SqlBool> {
  return eb.and([eb.not(hasState(['is_removed'])), eb.not(isFiltered())]);
}

/**
 * The entries a channel's timeline shows (of its subscribed feeds, or of one of them), optionally only
 * the unread ones.
 */
export function channelEntryKeys(
  db: Kysely<Database>,
  channelId: number,
  options: { feedId?: number | undefined; unreadOnly?: boolean | undefined } = {},
): KeyQuery<EntryScope> {
  let query = db
    .selectFrom('entries')
    .innerJoin('subscriptions', 'subscriptions.feed_id', 'entries.feed_id')
    .innerJoin('feeds', 'feeds.id', 'entries.feed_id')
    .select(['entries.id', 'entries.sort_at'])
    .where('subscriptions.channel_id', '=', channelId)
    .where(isShown());
  if (options.feedId !== undefined) query = query.where('entries.feed_id', '=', options.feedId);
  if (options.unreadOnly === true) query = query.where(eb.not(hasState(['is_read'])));
  return query;
}

/** The entries that at least one channel shows (each once, however many channels follow its feed). */
export function anyChannelEntryKeys(db: Kysely<Database>): KeyQuery<'entries' | 'feeds'> {
  return db
    .selectFrom('entries')
    .innerJoin('feeds', 'feeds.id', 'entries.feed_id')
    .select(['entries.id', 'entries.sort_at'])
    .where((outer) =>
      outer.exists(
        outer
          .selectFrom('subscriptions')
          .select('subscriptions.id')
          .whereRef('subscriptions.feed_id', '=', 'entries.feed_id')
          .where(isShown()),
      ),
    );
}
