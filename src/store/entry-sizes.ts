import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';
import { chunk } from './values.js';

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
 * PostgreSQL). For a page's byte budget (store.entries.sizes, a search page).
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
