import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { cachedPrepare, readTimed } from './statement-cache.js';

function openDatabase(): BetterSqlite3.Database {
  const database = new BetterSqlite3(':memory:');
  database.exec(`
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB);
    INSERT INTO items VALUES (1, 'one', 1.5, x'00ff'), (2, NULL, NULL, NULL), (3, 'três ☃', -2, x'');
  `);
  return database;
}

describe('readTimed', () => {
  it('reads the rows all() gives, as objects of the same keys and values', () => {
    const database = openDatabase();
    const prepare = cachedPrepare(database.prepare.bind(database));
    for (const sql of [
      'SELECT * FROM items ORDER BY id',
      'SELECT id AS "key", name, score * 2 AS doubled, length(data) AS size FROM items WHERE id > ?',
      'SELECT count(*) AS n FROM items',
      'SELECT * FROM items WHERE id = 99',
    ]) {
      const parameters = sql.includes('?') ? [1] : [];
      const read = readTimed(prepare, sql, parameters);
      assert.ok(read);
      assert.deepEqual(read.rows, database.prepare(sql).all(parameters), sql);
      assert.ok(read.ms >= 0);
    }
    const blobRead = readTimed(prepare, 'SELECT data FROM items WHERE id = 1', []);
    const blob = (blobRead?.rows[0] as { data: Buffer } | undefined)?.data;
    assert.ok(Buffer.isBuffer(blob));
    assert.deepEqual([...blob], [0, 255]);
  });

  it('leaves the shared statement giving objects to the driver that prepares it next', () => {
    const database = openDatabase();
    const prepare = cachedPrepare(database.prepare.bind(database));
    const sql = 'SELECT id, name FROM items ORDER BY id';
    readTimed(prepare, sql, []);
    assert.deepEqual(prepare(sql).all(), [
      { id: 1, name: 'one' },
      { id: 2, name: null },
      { id: 3, name: 'três ☃' },
    ]);
  });

  it('answers undefined for a statement that writes, and writes nothing', () => {
    const database = openDatabase();
    const prepare = cachedPrepare(database.prepare.bind(database));
    assert.equal(readTimed(prepare, 'DELETE FROM items', []), undefined);
    assert.equal(database.prepare('SELECT count(*) FROM items').pluck().get(), 3);
  });

  it('names the columns a statement has after the schema changed under it', () => {
    const database = openDatabase();
    const prepare = cachedPrepare(database.prepare.bind(database));
    const sql = 'SELECT * FROM items WHERE id = 1';
    assert.deepEqual(Object.keys(readTimed(prepare, sql, [])?.rows[0] as object), [
      'id',
      'name',
      'score',
      'data',
    ]);
    database.exec("ALTER TABLE items ADD COLUMN added TEXT DEFAULT 'new'");
    const row = readTimed(prepare, sql, [])?.rows[0] as Record<string, unknown>;
    assert.equal(row.added, 'new');
    assert.equal(row.name, 'one');
  });
});
