import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { encodeCursor } from './cursor.js';
import { type KeyPage, type PageRequest, pageKeys } from './paging.js';
import type { Database } from './schema.js';
import { CHANNEL_KEYS, channelEntryKeys, channelKeysTemplate } from './visibility.js';

// Only the columns a page reads: SQLite does not mind that the table is not the store's whole schema.
async function openDatabase(): Promise<Kysely<Database>> {
  const database = new BetterSqlite3(':memory:');
  database.exec(`
    CREATE TABLE entries (id INTEGER PRIMARY KEY, sort_at TEXT NOT NULL, feed_id INTEGER);
    CREATE TABLE channel_entries (channel_id INTEGER, entry_id INTEGER, feed_id INTEGER, sort_at TEXT,
      is_read INTEGER, is_removed INTEGER, is_hidden INTEGER);
  `);
  const insert = database.prepare('INSERT INTO entries VALUES (?, ?, ?)');
  const show = database.prepare('INSERT INTO channel_entries VALUES (?, ?, ?, ?, ?, ?, ?)');
  // 30 entries over 10 distinct times (ties broken by id), in two feeds, each in two channels: some read,
  // one removed
  for (let id = 1; id <= 30; id++) {
    const sortAt = `2026-01-${String(1 + (id % 10)).padStart(2, '0')}T00:00:00.000Z`;
    insert.run(id, sortAt, id % 2);
    for (const channelId of [1, 2])
      show.run(channelId, id, id % 2, sortAt, id % 3 === 0 ? 1 : 0, id === 7 ? 1 : 0, 0);
  }
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
    // entries remain); with it, only the first query of each shape is built: first, older, before, and
    // older again with one row (whether older entries remain), the row count being part of the SQL
    assert.equal(built, 2 * (4 + 2) + 4);
  });
});

describe('channelKeysTemplate', () => {
  it('binds what channelEntryKeys binds, for every option, so that each shape is built once', async () => {
    const db = await openDatabase();
    const optionSets = [{}, { feedId: 1 }, { unreadOnly: true }, { feedId: 0, unreadOnly: true }];
    for (const options of optionSets) {
      let built = 0;
      for (const channelId of [1, 2]) {
        const query = () => {
          built++;
          return channelEntryKeys(db, 'sqlite', channelId, options);
        };
        const template = channelKeysTemplate(db, 'test:channel-keys', channelId, options);
        const first = await pageKeys(query, { limit: 3 }, CHANNEL_KEYS, template);
        const plain = await channelEntryKeys(db, 'sqlite', channelId, options)
          .orderBy('channel_entries.sort_at', 'desc')
          .orderBy('channel_entries.entry_id', 'desc')
          .limit(3)
          .execute();
        assert.deepEqual(first.keys, plain, JSON.stringify(options));
        assert.ok(first.keys.length > 0);
      }
      assert.equal(built, 1, `built once for ${JSON.stringify(options)}`);
    }
  });
});
