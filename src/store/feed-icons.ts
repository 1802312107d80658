import type { Kysely } from 'kysely';
import type { FeedIcon } from './reader.js';
import type { Database } from './schema.js';
import { toIso } from './values.js';

/** A feed's stored icon, or the record that none was found (empty bytes); undefined when never looked for. */
export async function feedIcon(db: Kysely<Database>, feedId: number): Promise<FeedIcon | undefined> {
  const row = await db
    .selectFrom('feed_icons')
    .select(['content_type', 'bytes', 'fetched_at'])
    .where('feed_id', '=', feedId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { contentType: row.content_type, bytes: new Uint8Array(row.bytes), fetchedAt: row.fetched_at };
}

/** Stores a feed's icon, or (undefined) that none was found now; replaces what was there. */
export async function saveFeedIcon(
  db: Kysely<Database>,
  feedId: number,
  icon: { contentType: string; bytes: Uint8Array } | undefined,
  now: string,
): Promise<void> {
  const row = {
    feed_id: feedId,
    content_type: icon?.contentType ?? '',
    bytes: Buffer.from(icon?.bytes ?? new Uint8Array()),
    fetched_at: toIso(now, 'now'),
  };
  await db
    .insertInto('feed_icons')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('feed_id').doUpdateSet({
        content_type: row.content_type,
        bytes: row.bytes,
        fetched_at: row.fetched_at,
      }),
    )
    .execute();
}

/** The feeds that have an icon to show. */
export async function feedIdsWithIcons(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('feed_icons').select('feed_id').where('content_type', '!=', '').execute();
  return rows.map((row) => Number(row.feed_id));
}
