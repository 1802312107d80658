import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { readMigrations } from './migrate.js';
import { searchKey, searchKeySql } from './search-key.js';

const DATES = [
  '2024-03-01T12:00:00.000Z',
  '2024-03-01T12:00:59.999Z',
  '2024-03-01T12:01:00.000Z',
  '1970-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59.500Z',
  '1969-12-31T23:59:00.000Z',
  '1901-07-04T08:30:00.000Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
];
const IDS = [1, 7, 2 ** 31, 2 ** 32 - 1];

/** An in-memory database with the columns migration 0008 reads, and its FTS5 table. */
function database(): BetterSqlite3.Database {
  const db = new BetterSqlite3(':memory:');
  db.exec(`CREATE TABLE entries (id INTEGER PRIMARY KEY, sort_at TEXT NOT NULL, title TEXT, summary TEXT, content_text TEXT);
    CREATE VIRTUAL TABLE entries_fts USING fts5(body, content = '', contentless_delete = 1)`);
  return db;
}

describe('search keys', () => {
  it('sort as the reader does: by minute, then by id, before 1970 and after', () => {
    const keys = DATES.flatMap((date) => IDS.map((id) => ({ date, id, key: searchKey(date, id) })));
    const byKey = [...keys].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    const byMinuteThenId = [...keys].sort(
      (x, y) =>
        Math.floor(Date.parse(x.date) / 60_000) - Math.floor(Date.parse(y.date) / 60_000) || x.id - y.id,
    );
    assert.deepEqual(byKey, byMinuteThenId);
    // the id is in the low 32 bits
    for (const { id, key } of keys) assert.equal(Number(key & 0xffffffffn), id);
  });

  it('are the same when SQLite computes them, in queries and in migration 0008', async () => {
    const raw = database();
    const insert = raw.prepare('INSERT INTO entries (id, sort_at, title) VALUES (?, ?, ?)');
    let id = 1;
    const expected: bigint[] = [];
    for (const date of DATES) {
      insert.run(id, date, `entry ${id}`);
      expected.push(searchKey(date, id));
      id += 1;
    }
    const db = new Kysely<{ entries: { id: number; sort_at: string } }>({
      dialect: new SqliteDialect({ database: raw }),
    });
    const computed = await sql<{
      key: bigint;
    }>`SELECT ${searchKeySql('sort_at', 'id')} AS key FROM entries ORDER BY id`.execute(db);
    // better-sqlite3 reads integers past 2^53 inexactly unless asked: compare as text
    raw.defaultSafeIntegers(true);
    const migration = (await readMigrations('sqlite')).find((m) => m.name === '0008_search_order.sql');
    assert.ok(migration);
    for (const statement of migration.statements) raw.exec(statement);
    const indexed = raw.prepare('SELECT rowid FROM entries_fts ORDER BY rowid').all() as { rowid: bigint }[];
    assert.deepEqual(
      indexed.map((row) => row.rowid),
      [...expected].sort((x, y) => (x < y ? -1 : 1)),
    );
    assert.equal(computed.rows.length, expected.length);
    const exact = raw
      .prepare(`SELECT ${searchKeySql('sort_at', 'id').compile(db).sql} AS key FROM entries ORDER BY id`)
      .all(...searchKeySql('sort_at', 'id').compile(db).parameters) as { key: bigint }[];
    assert.deepEqual(
      exact.map((row) => row.key),
      expected,
    );
    await db.destroy();
  });
});
