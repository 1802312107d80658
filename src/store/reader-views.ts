import { expressionBuilder, type Kysely } from 'kysely';
import { markRead } from './entry-states.js';
import { pageKeys, toPage } from './paging.js';
import type { FeedCount, TimelinePage, UnreadQuery } from './reader.js';
import type { Database } from './schema.js';
import { loadTimelineEntries } from './timeline.js';
import { channelEntryKeys, hasState, isFiltered, isShown } from './visibility.js';

// The web reader's views across channels and feeds: per-feed unread counts, "All unread", and marking
// a selection read while returning what changed (for the "N entries marked read - Undo" notice).

type Dialect = 'sqlite' | 'postgres';

const eb = expressionBuilder<Database, 'entries' | 'feeds' | 'subscriptions'>();

/**
 * Every subscription's unread count: the entries of the feed neither read nor removed in the channel nor
 * muted or blocked there (the filters of `unreadCounts`), computed on the fly. Feeds with none are left out.
 */
export async function unreadCountsByFeed(db: Kysely<Database>): Promise<FeedCount[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('entries', 'entries.feed_id', 'subscriptions.feed_id')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select((s) => ['subscriptions.channel_id', 'subscriptions.feed_id', s.fn.countAll().as('unread')])
    .where(eb.not(hasState(['is_read', 'is_removed'])))
    .where(eb.not(isFiltered()))
    .groupBy(['subscriptions.channel_id', 'subscriptions.feed_id'])
    .execute();
  return rows.map((row) => ({
    channelId: row.channel_id,
    feedId: row.feed_id,
    unread: Number(row.unread),
  }));
}

/** Entries some channel shows and has not read yet, each once (the "All unread" view). */
function allUnreadKeys(db: Kysely<Database>) {
  return db
    .selectFrom('entries')
    .select(['entries.id', 'entries.sort_at'])
    .where((outer) =>
      outer.exists(
        outer
          .selectFrom('subscriptions')
          .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
          .select('subscriptions.id')
          .whereRef('subscriptions.feed_id', '=', 'entries.feed_id')
          .where(isShown())
          .where(eb.not(hasState(['is_read']))),
      ),
    );
}

/** One page of "All unread", newest first, with the timeline's cursors. */
export async function allUnread(db: Kysely<Database>, query: UnreadQuery): Promise<TimelinePage> {
  const page = await pageKeys(() => allUnreadKeys(db), query);
  const entries = await loadTimelineEntries(
    db,
    page.keys.map((key) => key.id),
    'any channel',
  );
  return toPage(page, entries, query.before);
}

/**
 * Marks read the unread entries a channel shows (of one feed, and/or at or below one entry by timeline
 * order) and returns their ids, so that exactly those can be marked unread again.
 */
export async function markReadReturningIds(
  db: Kysely<Database>,
  dialect: Dialect,
  channelId: number,
  scope: { feedId?: number | undefined; upToEntryId?: number | undefined },
  now: string,
): Promise<number[]> {
  let query = channelEntryKeys(db, channelId, { feedId: scope.feedId, unreadOnly: true });
  if (scope.upToEntryId !== undefined) {
    const target = await db
      .selectFrom('entries')
      .select(['sort_at', 'id'])
      .where('id', '=', scope.upToEntryId)
      .executeTakeFirst();
    if (target === undefined) return [];
    query = query.where(
      eb(eb.refTuple('entries.sort_at', 'entries.id'), '<=', eb.tuple(target.sort_at, target.id)),
    );
  }
  const ids = (await query.execute()).map((row) => row.id);
  await markRead(db, dialect, channelId, ids, true, now);
  return ids;
}
