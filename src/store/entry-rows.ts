import type { Insertable, Selectable } from 'kysely';
import type { Heartbeat, HeartbeatStatus, StoredEntry } from '../model/index.js';
import type { EntryTable, HeartbeatTable } from './schema.js';
import type { NewEntry, PollOutcome } from './types.js';
import { fromJson, toIso, toIsoOrNull } from './values.js';

/** `{ key: value }`, or nothing when the column is NULL: optional fields stay absent, never undefined. */
function optional<K extends string, V>(key: K, value: V | null): { [P in K]?: V } {
  return value === null ? {} : ({ [key]: value } as { [P in K]?: V });
}

type EntryContent = Omit<Insertable<EntryTable>, 'feed_id' | 'guid' | 'first_seen_at' | 'changed_at'>;

/** The columns an entry's content fills, for an insert and for an update alike. */
export function entryContentColumns(entry: NewEntry): EntryContent {
  return {
    url: entry.url ?? null,
    title: entry.title ?? null,
    summary: entry.summary ?? null,
    content_html: entry.contentHtml ?? null,
    content_text: entry.contentText ?? null,
    published: toIsoOrNull(entry.published, 'published'),
    updated: toIsoOrNull(entry.updated, 'updated'),
    sort_at: toIso(entry.sortAt, 'sortAt'),
    authors: JSON.stringify(entry.authors),
    categories: JSON.stringify(entry.categories),
    enclosures: JSON.stringify(entry.enclosures),
    extra: JSON.stringify(entry.extra),
    content_hash: entry.contentHash,
    url_key: entry.urlKey ?? null,
    author_url: entry.authorUrl ?? null,
  };
}

/**
 * The text the full-text index holds for an entry: its title, summary, plain-text content and Media RSS
 * description (a YouTube video's words are there), in this order. SQLite's FTS5 rows are written from it;
 * PostgreSQL's trigger (migration 0016) joins the same columns of the stored row: keep the two alike.
 */
export function searchTextOf(entry: NewEntry): string {
  const media = entry.extra['media'];
  const description =
    typeof media === 'object' && media !== null && 'description' in media ? media.description : undefined;
  return [entry.title, entry.summary, entry.contentText, description]
    .filter((part) => typeof part === 'string' && part !== '')
    .join('\n');
}

/**
 * Every column of an entry that is read back, by name: selecting them rather than `*` keeps PostgreSQL
 * from sending each entry's tsvector along.
 */
export const ENTRY_COLUMNS = [
  'entries.id',
  'entries.feed_id',
  'entries.guid',
  'entries.url',
  'entries.title',
  'entries.summary',
  'entries.content_html',
  'entries.content_text',
  'entries.published',
  'entries.updated',
  'entries.sort_at',
  'entries.authors',
  'entries.categories',
  'entries.enclosures',
  'entries.extra',
  'entries.content_hash',
  'entries.url_key',
  'entries.author_url',
  'entries.first_seen_at',
  'entries.changed_at',
] as const;

/** The row of an entry first seen now. */
export function newEntryRow(feedId: number, entry: NewEntry, now: string): Insertable<EntryTable> {
  // filled in place: spreading the content columns into a new object cost 10 µs an entry (bench:poll)
  const row = entryContentColumns(entry) as Insertable<EntryTable>;
  row.feed_id = feedId;
  row.guid = entry.guid;
  row.first_seen_at = now;
  row.changed_at = now;
  return row;
}

/**
 * The entry a row holds (a row with more columns, such as a timeline's, is read for the entry's own).
 * Optional fields are set when present, in place: spreading a small object per field cost a timeline
 * page of 20 entries 0.1 ms.
 */
export function entryFromRow(row: Selectable<EntryTable>): StoredEntry {
  const entry: StoredEntry = {
    id: row.id,
    feedId: row.feed_id,
    guid: row.guid,
    sortAt: row.sort_at,
    authors: fromJson(row.authors, []),
    categories: fromJson(row.categories, []),
    enclosures: fromJson(row.enclosures, []),
    extra: fromJson(row.extra, {}),
    contentHash: row.content_hash,
    firstSeenAt: row.first_seen_at,
    changedAt: row.changed_at,
  };
  if (row.url !== null) entry.url = row.url;
  if (row.title !== null) entry.title = row.title;
  if (row.summary !== null) entry.summary = row.summary;
  if (row.content_html !== null) entry.contentHtml = row.content_html;
  if (row.content_text !== null) entry.contentText = row.content_text;
  if (row.published !== null) entry.published = row.published;
  if (row.updated !== null) entry.updated = row.updated;
  if (row.url_key !== null) entry.urlKey = row.url_key;
  if (row.author_url !== null) entry.authorUrl = row.author_url;
  return entry;
}

/** The row of one poll's heartbeat. */
export function heartbeatRow(
  feedId: number,
  heartbeat: PollOutcome['heartbeat'],
): Insertable<HeartbeatTable> {
  return {
    feed_id: feedId,
    at: toIso(heartbeat.at, 'heartbeat.at'),
    status: heartbeat.status,
    http_status: heartbeat.httpStatus ?? null,
    new_count: heartbeat.newCount,
    updated_count: heartbeat.updatedCount,
    bytes: heartbeat.bytes,
    duration_ms: Math.round(heartbeat.durationMs),
    message: heartbeat.message ?? null,
    diagnostics: JSON.stringify(heartbeat.diagnostics),
  };
}

/** The heartbeat a row holds. */
export function heartbeatFromRow(row: Selectable<HeartbeatTable>): Heartbeat {
  return {
    id: row.id,
    feedId: row.feed_id,
    at: row.at,
    // Only polling.record writes this column, from a HeartbeatStatus.
    status: row.status as HeartbeatStatus,
    ...optional('httpStatus', row.http_status),
    newCount: row.new_count,
    updatedCount: row.updated_count,
    bytes: row.bytes,
    durationMs: row.duration_ms,
    ...optional('message', row.message),
    diagnostics: fromJson(row.diagnostics, []),
  };
}
