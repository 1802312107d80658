import { type Kysely, type RawBuilder, sql } from 'kysely';
import { flag, insertMissingRows, notAlert } from '../channel-entries.js';
import type { Database } from '../schema.js';
import type { CountDrift } from '../types.js';

// `tidings doctor`: works out from the records (subscriptions, entries, entry_states, filters, the entries
// notify rules put into notifications channels: notified_entries) what
// channel_entries and unread_counts should hold, compares, and repairs on request. After any sequence of
// the store's writes, crashed or concurrent ones included, it finds nothing (store tests).

type Dialect = 'sqlite' | 'postgres';

/** SQL: the rows channel_entries should hold, as a derived table `expected`. */
function expectedRows(dialect: Dialect): RawBuilder<unknown> {
  const no = flag(dialect, false);
  return sql`(SELECT s.channel_id, ch.user_id, e.id AS entry_id, e.feed_id, e.sort_at,
      COALESCE(st.is_read, ${no}) AS is_read, COALESCE(st.is_removed, ${no}) AS is_removed,
      EXISTS (SELECT 1 FROM filters WHERE filters.url IN (e.author_url, f.url, f.site_url)
        AND filters.user_id = ch.user_id AND COALESCE(filters.channel_id, 0) IN (0, s.channel_id)) AS is_hidden
    FROM subscriptions s
    JOIN channels ch ON ch.id = s.channel_id
    JOIN entries e ON e.feed_id = s.feed_id
    JOIN feeds f ON f.id = e.feed_id
    LEFT JOIN entry_states st ON st.channel_id = s.channel_id AND st.entry_id = e.id
    WHERE ${notAlert('e')}
    UNION
    SELECT n.channel_id, ch.user_id, e.id AS entry_id, e.feed_id, e.sort_at,
      COALESCE(st.is_read, ${no}) AS is_read, COALESCE(st.is_removed, ${no}) AS is_removed,
      EXISTS (SELECT 1 FROM filters WHERE filters.url IN (e.author_url, f.url, f.site_url)
        AND filters.user_id = ch.user_id AND COALESCE(filters.channel_id, 0) IN (0, n.channel_id)) AS is_hidden
    FROM notified_entries n
    JOIN channels ch ON ch.id = n.channel_id
    JOIN entries e ON e.id = n.entry_id
    JOIN feeds f ON f.id = e.feed_id
    LEFT JOIN entry_states st ON st.channel_id = n.channel_id AND st.entry_id = e.id)`;
}

const DIFFERS = sql`(c.is_read <> x.is_read OR c.is_removed <> x.is_removed OR c.is_hidden <> x.is_hidden
  OR c.feed_id <> x.feed_id OR c.sort_at <> x.sort_at OR c.user_id <> x.user_id)`;

async function countOf(db: Kysely<Database>, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${query} AS counted`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The three kinds of row drift, counted. */
export async function rowDrift(db: Kysely<Database>, dialect: Dialect) {
  const expected = expectedRows(dialect);
  const missingRows = await countOf(
    db,
    sql`(SELECT 1 AS one FROM ${expected} x WHERE NOT EXISTS (SELECT 1 FROM channel_entries c WHERE c.channel_id = x.channel_id AND c.entry_id = x.entry_id))`,
  );
  const strayRows = await countOf(
    db,
    sql`(SELECT 1 AS one FROM channel_entries c WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.channel_id = c.channel_id AND s.feed_id = c.feed_id)
      AND NOT EXISTS (SELECT 1 FROM notified_entries n WHERE n.channel_id = c.channel_id AND n.entry_id = c.entry_id))`,
  );
  const wrongRows = await countOf(
    db,
    sql`(SELECT 1 AS one FROM ${expected} x JOIN channel_entries c ON c.channel_id = x.channel_id AND c.entry_id = x.entry_id WHERE ${DIFFERS})`,
  );
  return { missingRows, strayRows, wrongRows };
}

/** Pairs whose kept count differs from the count of their expected unread rows (stray counts included). */
export async function countDrift(db: Kysely<Database>, dialect: Dialect): Promise<CountDrift[]> {
  const no = flag(dialect, false);
  const { rows } = await sql<{
    channel_id: number;
    feed_id: number;
    kept: number | string;
    actual: number | string;
  }>`
    SELECT pairs.channel_id, pairs.feed_id, COALESCE(u.unread, 0) AS kept, COALESCE(a.unread, 0) AS actual
    FROM (SELECT channel_id, feed_id FROM subscriptions UNION SELECT channel_id, feed_id FROM unread_counts) pairs
    LEFT JOIN unread_counts u ON u.channel_id = pairs.channel_id AND u.feed_id = pairs.feed_id
    LEFT JOIN (
      SELECT x.channel_id, x.feed_id, COUNT(*) AS unread FROM ${expectedRows(dialect)} x
      WHERE x.is_read = ${no} AND x.is_removed = ${no} AND x.is_hidden = ${no}
      GROUP BY x.channel_id, x.feed_id
    ) a ON a.channel_id = pairs.channel_id AND a.feed_id = pairs.feed_id
    WHERE COALESCE(u.unread, 0) <> COALESCE(a.unread, 0)
    ORDER BY pairs.channel_id, pairs.feed_id`.execute(db);
  return rows.map((row) => ({
    channelId: row.channel_id,
    feedId: row.feed_id,
    kept: Number(row.kept),
    actual: Number(row.actual),
  }));
}

/**
 * Writes channel_entries and unread_counts again from the records, in the caller's transaction: all of
 * them, which is one pass over the entries, rather than a correlated search for each wrong row.
 */
export async function rebuild(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.deleteFrom('channel_entries').execute();
  await insertMissingRows(db, dialect);
  const no = flag(dialect, false);
  await db.deleteFrom('unread_counts').execute();
  await sql`INSERT INTO unread_counts (channel_id, feed_id, unread)
    SELECT channel_id, feed_id, COUNT(*) FROM channel_entries
    WHERE is_read = ${no} AND is_removed = ${no} AND is_hidden = ${no}
    GROUP BY channel_id, feed_id`.execute(db);
}
