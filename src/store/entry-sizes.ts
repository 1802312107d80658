import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';
import { chunk } from './values.js';

// How big entries are before they are loaded, so that a page of an API can stop when its byte budget is
// spent without reading what it will not send (issue 22: 31 entries of 19 MB made one page 4.8 GB).

const ID_CHUNK = 500;

/** The text columns an entry's answer is written from; their bytes add up to the entry's size. */
const TEXT_COLUMNS = [
  'entries.url',
  'entries.title',
  'entries.summary',
  'entries.content_html',
  'entries.content_text',
  'entries.authors',
  'entries.categories',
  'entries.enclosures',
  'entries.extra',
] as const;

/**
 * The stored size of each of these entries in bytes (UTF-8 text of its content, summary, title and the
 * rest), by id; unknown ids are left out. octet_length reads the size without the text (SQLite >= 3.43,
 * PostgreSQL).
 */
export async function entrySizes(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  const total = sql.join(
    TEXT_COLUMNS.map((column) => sql`coalesce(octet_length(${sql.ref(column)}), 0)`),
    sql` + `,
  );
  for (const part of chunk([...new Set(ids)], ID_CHUNK)) {
    const rows = await db
      .selectFrom('entries')
      .select(['entries.id', sql<number | string>`${total}`.as('bytes')])
      .where('entries.id', 'in', part)
      .execute();
    for (const row of rows) sizes.set(row.id, Number(row.bytes));
  }
  return sizes;
}
