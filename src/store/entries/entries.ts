import type { StoredEntry } from '../../model/index.js';
import { StoreArea } from '../area.js';
import { isFollowed } from '../claim.js';
import { ENTRY_COLUMNS, entryFromRow } from '../entry-rows.js';
import { entrySizes } from '../entry-sizes.js';
import { runTemplate } from '../query-template.js';
import type { RetentionPolicy } from '../types.js';
import { chunk, rowCount } from '../values.js';
import { GUID_CHUNK } from './poll-writes.js';
import { keepBoundary, removeBatch } from './retention.js';

// How big entries are before they are loaded, so that a page of an API can stop when its byte budget is
// spent without reading what it will not send (issue 22: 31 entries of 19 MB made one page 4.8 GB).

/** The stored entries: read by id or feed, looked up by guid or URL for polls, sized, and retired (retention). */
export class Entries extends StoreArea {
  /** Returns the entry with this id, if any. */
  async get(id: number): Promise<StoredEntry | undefined> {
    const db = this.db;
    const row = await db.selectFrom('entries').select(ENTRY_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : entryFromRow(row);
  }

  /** Returns a feed's entries, newest (by sort time) first. */
  async listByFeed(feedId: number, limit: number): Promise<StoredEntry[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('entries')
      .select(ENTRY_COLUMNS)
      .where('feed_id', '=', feedId)
      .orderBy('sort_at', 'desc')
      .orderBy('id', 'desc')
      .limit(rowCount(limit))
      .execute();
    return rows.map(entryFromRow);
  }

  /**
   * Returns guid -> id and content hash for the feed's stored entries among `guids` (every poll asks: the
   * statement is compiled once per number of guids, see query-template.ts).
   */
  async hashes(
    feedId: number,
    guids: readonly string[],
  ): Promise<Map<string, { id: number; contentHash: string }>> {
    const db = this.db;
    const dialect = this.dialect;
    const hashes = new Map<string, { id: number; contentHash: string }>();
    for (const part of chunk([...new Set(guids)], GUID_CHUNK)) {
      const query = () =>
        db
          .selectFrom('entries')
          .select(['id', 'guid', 'content_hash'])
          .where('feed_id', '=', feedId)
          .where('guid', 'in', part);
      const { rows } = await runTemplate(
        db,
        `${dialect}:entry-hashes|${part.length}`,
        [feedId, ...part],
        query,
      );
      for (const row of rows) hashes.set(row.guid, { id: row.id, contentHash: row.content_hash });
    }
    return hashes;
  }

  /** Returns url key -> id, guid and content hash for the feed's stored entries among `urlKeys`. */
  async byUrlKey(
    feedId: number,
    urlKeys: readonly string[],
  ): Promise<Map<string, { id: number; guid: string; contentHash: string }>> {
    const db = this.db;
    const found = new Map<string, { id: number; guid: string; contentHash: string }>();
    for (const part of chunk([...new Set(urlKeys)], GUID_CHUNK)) {
      const rows = await db
        .selectFrom('entries')
        .select(['id', 'guid', 'url_key', 'content_hash'])
        .where('feed_id', '=', feedId)
        .where('url_key', 'in', part)
        .execute();
      for (const row of rows) {
        if (row.url_key !== null)
          found.set(row.url_key, { id: row.id, guid: row.guid, contentHash: row.content_hash });
      }
    }
    return found;
  }

  /**
   * The stored size of each of these entries in bytes (UTF-8 text of its content, summary, title and the
   * rest), by id; unknown ids are left out. octet_length reads the size without the text (SQLite >= 3.43,
   * PostgreSQL).
   */
  async sizes(ids: readonly number[]): Promise<Map<number, number>> {
    return entrySizes(this.db, ids);
  }

  /** Applies the policy to the followed feeds, feed by feed, in batches, and returns how many entries it removed. */
  async applyRetention(policy: RetentionPolicy): Promise<{ removed: number }> {
    const db = this.db;
    const dialect = this.dialect;
    const feeds = await db.selectFrom('feeds').select('id').where(isFollowed).orderBy('id').execute();
    const budget = policy.maxEntries ?? Number.POSITIVE_INFINITY;
    let removed = 0;
    for (const feed of feeds) {
      const boundary = await keepBoundary(db, feed.id, policy.keepPerFeed);
      if (boundary === undefined) continue;
      for (;;) {
        const limit = Math.min(policy.batchSize, budget - removed);
        if (limit <= 0) return { removed };
        const count = await removeBatch(db, dialect, feed.id, boundary, policy, limit);
        removed += count;
        if (count < limit) break;
      }
    }
    return { removed };
  }
}
