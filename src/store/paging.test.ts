import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { encodeCursor } from './cursor.js';
import { type KeyPage, type PageRequest, pageKeys } from './paging.js';
import type { Database } from './schema.js';

// Only the columns a page reads: SQLite does not mind that the table is not the store's whole schema.
async function openDatabase(): Promise<Kysely<Database>> {
  const database = new BetterSqlite3(':memory:');
  database.exec('CREATE TABLE entries (id INTEGER PRIMARY KEY, sort_at TEXT NOT NULL, feed_id INTEGER)');
  const insert = database.prepare('INSERT INTO entries VALUES (?, ?, ?)');
  // 30 entries over 10 distinct times (ties broken by id), in two feeds
  for (let id = 1; id <= 30; id++)
    insert.run(id, `2026-01-${String(1 + (id % 10)).padStart(2, '0')}T00:00:00.000Z`, id % 2);
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

describe('pageKeys with a template', () => {
  it('reads the same pages as without, compiling each shape of query once', async () => {
    const db = await openDatabase();
    let built = 0;
    const query = (feedId: number) => () => {
      built++;
      return db
        .selectFrom('entries')
        .select(['entries.id', 'entries.sort_at'])
        .where('entries.feed_id', '=', feedId);
    };
    const pages = async (feedId: number, templated: boolean) => {
      const template = templated ? { db, key: 'test:feed-page', values: [feedId] } : undefined;
      const read = (request: PageRequest) => pageKeys(query(feedId), request, undefined, template);
      const seen: KeyPage[] = [];
      let page = await read({ limit: 4 });
      seen.push(page);
      while (page.hasOlder) {
        const last = page.keys.at(-1) as { id: number; sort_at: string };
        page = await read({ limit: 4, after: encodeCursor({ sortAt: last.sort_at, id: last.id }) });
        seen.push(page);
      }
      // and back up from the last page, as a client asking for newer entries does
      const first = page.keys[0] as { id: number; sort_at: string };
      seen.push(await read({ limit: 4, before: encodeCursor({ sortAt: first.sort_at, id: first.id }) }));
      return seen;
    };
    for (const feedId of [0, 1]) {
      const plain = await pages(feedId, false);
      assert.equal(plain.flatMap((p) => p.keys).length, 15 + 4, 'every entry of the feed once, then 4 again');
      assert.deepEqual(await pages(feedId, true), plain);
    }
    // without the template each feed builds 4 pages down and 2 queries up (the page, and whether older
    // entries remain); with it, only the first query of each shape (first, older, before) is built
    assert.equal(built, 2 * (4 + 2) + 3);
  });
});
