import type { Kysely } from 'kysely';
import type { StoredFeed } from '../model/stored.js';
import { feedColumns, feedFieldsFromRow } from './rows.js';
import type { Database } from './schema.js';

// The health list (/feeds) counts, filters and sorts every feed on each request, so it reads these
// columns only: whole rows (their diagnostics JSON above all) took 20 ms at 2,000 feeds (issue 14).
const SUMMARY_FIELDS = [
  'url',
  'title',
  'siteUrl',
  'message',
  'status',
  'paused',
  'unfollowedAt',
  'lastNewEntryAt',
  'cadenceSeconds',
  'errorCount',
  'lastSuccessAt',
  'nextCheckAt',
] as const;

/** What the health list needs of a feed: what its health is made of, what it is sorted and searched by, what a row shows. */
export type FeedSummary = Pick<StoredFeed, 'id' | (typeof SUMMARY_FIELDS)[number]>;

/** Returns every feed's summary, oldest first. */
export async function listFeedSummaries(db: Kysely<Database>): Promise<FeedSummary[]> {
  const rows = await db
    .selectFrom('feeds')
    .select(['id', ...feedColumns(SUMMARY_FIELDS)])
    .orderBy('id')
    .execute();
  return rows.map((row) => feedFieldsFromRow(row, SUMMARY_FIELDS));
}
