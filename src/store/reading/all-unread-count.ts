import { type RawBuilder, sql } from 'kysely';
import { flag } from '../channel-entries.js';

type Dialect = 'sqlite' | 'postgres';

// "All unread" counts each entry once, as its list shows it (issue 22): the sum of the channels' kept
// counts counts an entry once per channel whose feed it is. Only feeds that several channels follow can
// be counted twice; for them the kept counts give way to their distinct unread rows (read from
// channel_entries by feed). A reader who follows each feed once pays one probe of the subscriptions'
// feed index per subscription and reads nothing else: bench:serve's web pages read this on every page,
// and two GROUP BYs over unread_counts cost them 0.3 ms each.

/** SQL: the ids of the user's channels. */
function channelsOf(userId: number): RawBuilder<unknown> {
  return sql`SELECT id FROM channels WHERE user_id = ${userId}`;
}

/** SQL: the feeds several of the user's channels follow. */
function multiFollowed(userId: number): RawBuilder<unknown> {
  return sql`SELECT feed_id FROM subscriptions WHERE channel_id IN (${channelsOf(userId)}) GROUP BY feed_id HAVING COUNT(*) >= 2`;
}

/**
 * What the sum of the user's channels' unread counts counts more than once, as one SQL expression: the
 * kept counts of the feeds several of their channels follow, less their distinct unread entries. 0 when
 * no feed is followed twice (checked first, from the subscriptions' feed index).
 */
export function allUnreadOvercountSql(dialect: Dialect, userId: number): RawBuilder<number | string> {
  const no = flag(dialect, false);
  return sql<number | string>`(CASE WHEN EXISTS (
      SELECT 1 FROM subscriptions a JOIN subscriptions b ON b.feed_id = a.feed_id AND b.channel_id <> a.channel_id
      WHERE a.channel_id IN (${channelsOf(userId)}) AND b.channel_id IN (${channelsOf(userId)}))
    THEN (SELECT COALESCE(SUM(unread), 0) FROM unread_counts
          WHERE channel_id IN (${channelsOf(userId)}) AND feed_id IN (${multiFollowed(userId)}))
      - (SELECT COUNT(DISTINCT entry_id) FROM channel_entries
         WHERE user_id = ${userId} AND is_read = ${no} AND is_removed = ${no} AND is_hidden = ${no}
           AND feed_id IN (${multiFollowed(userId)}))
    ELSE 0 END)`;
}

/**
 * How many entries the user's "All unread" lists, as one SQL expression: entries some channel of theirs
 * shows unread, each once.
 */
export function allUnreadSql(dialect: Dialect, userId: number): RawBuilder<number | string> {
  return sql<number | string>`((SELECT COALESCE(SUM(unread), 0) FROM unread_counts
    WHERE channel_id IN (${channelsOf(userId)})) - ${allUnreadOvercountSql(dialect, userId)})`;
}
