import type { Heartbeat, HeartbeatBar, HeartbeatStatus } from '../../model/index.js';
import { StoreArea } from '../area.js';
import { heartbeatFromRow } from '../entry-rows.js';
import { rowCount } from '../values.js';

/** Each feed's heartbeats: one a poll, what the health pages show. */
export class Heartbeats extends StoreArea {
  /** Returns a feed's heartbeats, newest first. */
  async list(feedId: number, limit: number): Promise<Heartbeat[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('heartbeats')
      .selectAll()
      .where('feed_id', '=', feedId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(rowCount(limit))
      .execute();
    return rows.map(heartbeatFromRow);
  }

  /**
   * The last `limit` heartbeats of each of these feeds (a page of the health list) as bars, newest first;
   * feeds without any are absent. One statement that reads about `limit` index entries per feed, however
   * many heartbeats a feed has (one a poll, many a day): each feed's rows are read through the (feed_id, at)
   * index from the time of its `limit`-th newest on. The simpler `heartbeats.id IN (a correlated LIMIT
   * subquery)` join ran that subquery for every heartbeat row on PostgreSQL: 7 minutes at 600,000 rows.
   */
  async bars(feedIds: readonly number[], limit: number): Promise<Map<number, HeartbeatBar[]>> {
    const db = this.db;
    const byFeed = new Map<number, HeartbeatBar[]>();
    if (feedIds.length === 0 || limit < 1) return byFeed;
    const rows = await db
      .selectFrom('feeds')
      .innerJoin('heartbeats', (join) =>
        join.onRef('heartbeats.feed_id', '=', 'feeds.id').on('heartbeats.at', '>=', (eb) =>
          eb.fn.coalesce(
            eb
              .selectFrom('heartbeats as newer')
              .select('newer.at')
              .whereRef('newer.feed_id', '=', 'feeds.id')
              .orderBy('newer.at', 'desc')
              .orderBy('newer.id', 'desc')
              .limit(rowCount(1))
              .offset(rowCount(limit - 1)),
            eb.val(''),
          ),
        ),
      )
      .select(['heartbeats.feed_id', 'heartbeats.at', 'heartbeats.status', 'heartbeats.new_count'])
      .where('feeds.id', 'in', [...new Set(feedIds)])
      .orderBy('heartbeats.feed_id')
      .orderBy('heartbeats.at', 'desc')
      .orderBy('heartbeats.id', 'desc')
      .execute();
    for (const row of rows) {
      const list = byFeed.get(row.feed_id) ?? [];
      // Polls that share the time of the `limit`-th newest all match the index range: keep the newest.
      if (list.length === limit) continue;
      // Only polling.record writes this column, from a HeartbeatStatus.
      list.push({ at: row.at, status: row.status as HeartbeatStatus, newCount: row.new_count });
      byFeed.set(row.feed_id, list);
    }
    return byFeed;
  }
}
