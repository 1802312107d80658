import { type RawBuilder, sql } from 'kysely';
import { flag } from '../channel-entries.js';

type Dialect = 'sqlite' | 'postgres';

// "All unread" counts each entry once, as its list shows it (issue 22): the sum of the channels' kept
// counts counts an entry once per channel whose feed it is. Only feeds that several channels follow can
// be counted twice; for them the kept counts give way to their distinct unread rows (read from
// channel_entries by feed). A reader who follows each feed once pays one probe of the subscriptions'
// feed index per subscription and reads nothing else: bench:serve's web pages read this on every page,
// and two GROUP BYs over unread_counts cost them 0.3 ms each.

const MULTI_FOLLOWED = sql`SELECT feed_id FROM subscriptions GROUP BY feed_id HAVING COUNT(*) >= 2`;

/**
 * What the sum of the channels' unread counts counts more than once, as one SQL expression: the kept
 * counts of the feeds several channels follow, less their distinct unread entries. 0 when no feed is
 * followed twice (checked first, from the subscriptions' feed index).
 */
export function allUnreadOvercountSql(dialect: Dialect): RawBuilder<number | string> {
  const no = flag(dialect, false);
  return sql<number | string>`(CASE WHEN EXISTS (
      SELECT 1 FROM subscriptions a JOIN subscriptions b ON b.feed_id = a.feed_id AND b.channel_id <> a.channel_id)
    THEN (SELECT COALESCE(SUM(unread), 0) FROM unread_counts WHERE feed_id IN (${MULTI_FOLLOWED}))
      - (SELECT COUNT(DISTINCT entry_id) FROM channel_entries
         WHERE is_read = ${no} AND is_removed = ${no} AND is_hidden = ${no} AND feed_id IN (${MULTI_FOLLOWED}))
    ELSE 0 END)`;
}

/** How many entries "All unread" lists, as one SQL expression: entries some channel shows unread, each once. */
export function allUnreadSql(dialect: Dialect): RawBuilder<number | string> {
  return sql<
    number | string
  >`((SELECT COALESCE(SUM(unread), 0) FROM unread_counts) - ${allUnreadOvercountSql(dialect)})`;
}
