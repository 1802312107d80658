import { type RawBuilder, sql } from 'kysely';
import { flag } from '../channel-entries.js';

type Dialect = 'sqlite' | 'postgres';

// "All unread" counts each entry once, as its list shows it (issue 22): the sum of the channels' kept
// counts counted an entry twice when two channels follow its feed. The kept (channel, feed) counts
// give the feeds one channel has unread; only the unread rows of feeds that several channels have unread
// are read, from the partial index of unread rows (migration 0009), and counted once each. A reader who
// follows each feed once pays two sums over unread_counts, whatever the number of entries, and no
// statement of its own: the expression rides along with the channels' counts (Reading.overview).

/** How many entries "All unread" lists, as one SQL expression: entries some channel shows unread, each once. */
export function allUnreadSql(dialect: Dialect): RawBuilder<number | string> {
  const no = flag(dialect, false);
  const shared = sql`SELECT feed_id FROM unread_counts WHERE unread > 0 GROUP BY feed_id HAVING COUNT(*) >= 2`;
  return sql<
    number | string
  >`((SELECT COALESCE(SUM(unread), 0) FROM unread_counts WHERE feed_id NOT IN (${shared}))
    + (SELECT COUNT(DISTINCT entry_id) FROM channel_entries
       WHERE is_read = ${no} AND is_removed = ${no} AND is_hidden = ${no} AND feed_id IN (${shared})))`;
}
