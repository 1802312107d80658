import type { Kysely } from 'kysely';
import { StoreArea } from '../area.js';
import type { Database } from '../schema.js';
import type { FeedIcon, FeedIconRecord } from '../types.js';
import { toIso } from '../values.js';

/** Stores a feed's icon, or (undefined) that none was found now; replaces what was there. */
async function writeIcon(
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

/** Feed icons as the poller finds them (image bytes and type, or the record that none was found). */
export class FeedIcons extends StoreArea {
  /** A feed's stored icon, or the record that none was found (empty bytes); undefined when never looked for. */
  async get(feedId: number): Promise<FeedIcon | undefined> {
    const db = this.db;
    const row = await db
      .selectFrom('feed_icons')
      .select(['content_type', 'bytes', 'fetched_at'])
      .where('feed_id', '=', feedId)
      .executeTakeFirst();
    if (!row) return undefined;
    return { contentType: row.content_type, bytes: new Uint8Array(row.bytes), fetchedAt: row.fetched_at };
  }

  /** Stores a feed's icon, or (undefined) that none was found now; replaces what was there. */
  save(
    feedId: number,
    icon: { contentType: string; bytes: Uint8Array } | undefined,
    now: string,
  ): Promise<void> {
    return writeIcon(this.db, feedId, icon, now);
  }

  /**
   * Stores several lookups' results in one transaction (a first poll round looked for 1,000 icons, and
   * committed each result on its own beside the polls' group commits, issue 22). Should a feed have gone
   * meanwhile, each record is stored on its own, and that feed's is dropped.
   */
  async saveMany(records: readonly FeedIconRecord[]): Promise<void> {
    const db = this.db;
    if (records.length === 0) return;
    try {
      await db.transaction().execute(async (trx) => {
        for (const { feedId, icon, now } of records) await writeIcon(trx, feedId, icon, now);
      });
    } catch {
      for (const { feedId, icon, now } of records) await writeIcon(db, feedId, icon, now).catch(() => {});
    }
  }

  /** The feeds that have an icon to show. */
  async feedIds(): Promise<number[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('feed_icons')
      .select('feed_id')
      .where('content_type', '!=', '')
      .execute();
    return rows.map((row) => Number(row.feed_id));
  }

  /** When the icons of these feeds were last looked for (found or not); a feed never looked for is absent. */
  async times(feedIds: readonly number[]): Promise<Map<number, string>> {
    const db = this.db;
    const times = new Map<number, string>();
    for (let at = 0; at < feedIds.length; at += 500) {
      const rows = await db
        .selectFrom('feed_icons')
        .select(['feed_id', 'fetched_at'])
        .where('feed_id', 'in', feedIds.slice(at, at + 500))
        .execute();
      for (const row of rows) times.set(Number(row.feed_id), row.fetched_at);
    }
    return times;
  }
}
