import { type Kysely, type SqlBool, sql } from 'kysely';
import { flag } from './channel-entries.js';
import { markRead } from './entry-states.js';
import { pageKeys, toPage } from './paging.js';
import type { TimelinePage, UnreadQuery } from './reader.js';
import type { Database } from './schema.js';
import { loadTimelineEntries } from './timeline.js';
import { CHANNEL_KEYS, channelEntryKeys, type KeyQuery } from './visibility.js';

// The web reader's views across channels and feeds: per-feed unread counts, "All unread", and marking
// a selection read while returning what changed (for the "N entries marked read - Undo" notice).

type Dialect = 'sqlite' | 'postgres';

/**
 * Entries some channel shows and has not read yet, each once (the "All unread" view), as channel_entries
 * keys (page them with CHANNEL_KEYS): the shown, unread rows of every channel by timeline order, read from
 * their own index (migration 0009), so that a page stops after the page however much is read. An entry's
 * rows all carry its sort_at, so an entry unread in several channels is one key.
 */
export function allUnreadKeys(db: Kysely<Database>, dialect: Dialect): KeyQuery<'channel_entries'> {
  const no = flag(dialect, false);
  return db
    .selectFrom('channel_entries')
    .select(['channel_entries.entry_id as id', 'channel_entries.sort_at'])
    .distinct()
    .where(
      sql<SqlBool>`channel_entries.is_read = ${no} AND channel_entries.is_removed = ${no} AND channel_entries.is_hidden = ${no}`,
    );
}

/** One page of "All unread", newest first, with the timeline's cursors. */
export async function allUnread(
  db: Kysely<Database>,
  dialect: Dialect,
  query: UnreadQuery,
): Promise<TimelinePage> {
  const page = await pageKeys(() => allUnreadKeys(db, dialect), query, CHANNEL_KEYS);
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
  let query = channelEntryKeys(db, dialect, channelId, { feedId: scope.feedId, unreadOnly: true });
  if (scope.upToEntryId !== undefined) {
    const target = await db
      .selectFrom('entries')
      .select(['sort_at', 'id'])
      .where('id', '=', scope.upToEntryId)
      .executeTakeFirst();
    if (target === undefined) return [];
    query = query.where(
      sql<SqlBool>`(channel_entries.sort_at, channel_entries.entry_id) <= (${target.sort_at}, ${target.id})`,
    );
  }
  const ids = (await query.execute()).map((row) => row.id);
  await markRead(db, dialect, channelId, ids, true, now);
  return ids;
}
