import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { type Compilable, Kysely, SqliteDialect } from 'kysely';
import { insertUniform, runTemplate, runTemplateOf, templateFallbacks } from './query-template.js';

interface TestDatabase {
  items: { id: number; name: string; owner: string | null };
}

async function openDatabase(): Promise<Kysely<TestDatabase>> {
  const db = new Kysely<TestDatabase>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }),
  });
  await db.schema
    .createTable('items')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('owner', 'text')
    .execute();
  return db;
}

/** Counts how often `build` is asked for its query. */
function counted<T extends unknown[], R>(build: (...args: T) => Compilable<R>) {
  const counter = {
    calls: 0,
    build: (...args: T) => {
      counter.calls++;
      return build(...args);
    },
  };
  return counter;
}

describe('query templates', () => {
  it('compiles a multi-row insert once per shape and binds new rows to the same SQL', async () => {
    const db = await openDatabase();
    await db.transaction().execute(async (trx) => {
      const insert = counted((rows: readonly Record<string, unknown>[]) =>
        trx
          .insertInto('items')
          .values(rows as TestDatabase['items'][])
          .returning(['id', 'name']),
      );
      const first = await insertUniform(
        trx,
        'test:items',
        [
          { id: 1, name: 'a', owner: null },
          { id: 2, name: 'b', owner: 'x' },
        ],
        insert.build,
      );
      const second = await insertUniform(
        trx,
        'test:items',
        [
          { id: 3, name: 'c', owner: null },
          { id: 4, name: 'd', owner: null },
        ],
        insert.build,
      );
      assert.deepEqual(
        [...first, ...second],
        [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
          { id: 3, name: 'c' },
          { id: 4, name: 'd' },
        ],
      );
      assert.equal(insert.calls, 1);
      // another row count is another statement
      await insertUniform(trx, 'test:items', [{ id: 5, name: 'e', owner: null }], insert.build);
      assert.equal(insert.calls, 2);
    });
    await db.destroy();
  });

  it("reuses an update with CASE expressions (the poller's feed patch) and reports the rows it changed", async () => {
    const db = await openDatabase();
    await db
      .insertInto('items')
      .values([
        { id: 1, name: 'a', owner: 'me' },
        { id: 2, name: 'b', owner: 'other' },
      ])
      .execute();
    await db.transaction().execute(async (trx) => {
      const update = counted((name: string, worker: string, id: number) =>
        trx
          .updateTable('items')
          .set({ name })
          .set((eb) => ({
            owner: eb.case().when('owner', '=', worker).then(null).else(eb.ref('owner')).end(),
          }))
          .where('id', '=', id),
      );
      const patch = (name: string, worker: string, id: number) =>
        runTemplate(trx, 'test:patch|name', [name, worker, id], () => update.build(name, worker, id));
      assert.equal((await patch('A', 'me', 1)).numAffectedRows, 1n);
      assert.equal((await patch('B', 'me', 2)).numAffectedRows, 1n);
      assert.equal((await patch('C', 'me', 3)).numAffectedRows, 0n);
      assert.equal(update.calls, 1);
    });
    assert.deepEqual(await db.selectFrom('items').selectAll().orderBy('id').execute(), [
      { id: 1, name: 'A', owner: null },
      { id: 2, name: 'B', owner: 'other' },
    ]);
    await db.destroy();
  });

  it('goes through Kysely every time when the values given are not the ones the query binds', async () => {
    const db = await openDatabase();
    await db.transaction().execute(async (trx) => {
      // values listed in another order than the statement binds them: never cached
      const insert = counted(() => trx.insertInto('items').values({ id: 7, name: 'n', owner: null }));
      await runTemplate(trx, 'test:wrong-order', ['n', 7, null], insert.build);
      await trx.deleteFrom('items').execute();
      await runTemplate(trx, 'test:wrong-order', ['n', 7, null], insert.build);
      assert.equal(insert.calls, 2);
      // a value that is not plain (an SQL expression) is never cached either
      const raw = counted(() => trx.selectNoFrom((eb) => eb.val(1).as('one')));
      await runTemplate(trx, 'test:raw', [{}], raw.build);
      await runTemplate(trx, 'test:raw', [{}], raw.build);
      assert.equal(raw.calls, 2);
    });
    assert.deepEqual(await db.selectFrom('items').select(['id', 'name']).execute(), [{ id: 7, name: 'n' }]);
    await db.destroy();
  });

  it('binds each input where the first compilation bound it, constants alike, whatever the values', async () => {
    const db = await openDatabase();
    await db
      .insertInto('items')
      .values([
        { id: 1, name: 'x', owner: 'x' },
        { id: 2, name: 'x', owner: 'y' },
        { id: 3, name: 'z', owner: 'y' },
      ])
      .execute();
    const query = counted((inputs: readonly unknown[]) =>
      db
        .selectFrom('items')
        .select('id')
        // the constant 'x' equals the first call's input: it must stay 'x' for the second
        .where('name', '=', 'x')
        .where((eb) => eb.or([eb('owner', '=', inputs[0] as string), eb('id', '=', inputs[1] as number)]))
        .orderBy('id'),
    );
    const before = templateFallbacks();
    const ids = async (owner: string, id: number) =>
      (await runTemplateOf(db, 'test:of', [owner, id], query.build)).rows.map((row) => row.id);
    assert.deepEqual(await ids('x', 99), [1]);
    assert.deepEqual(await ids('y', 99), [2]);
    assert.deepEqual(await ids('nobody', 1), [1]);
    assert.deepEqual(await ids('y', 3), [2]);
    // two compilations to learn the places, none after
    assert.equal(query.calls, 2);
    assert.equal(templateFallbacks(), before);
  });

  it('compiles a query that binds a value made from an input every time, with the right values', async () => {
    const db = await openDatabase();
    await db
      .insertInto('items')
      .values([
        { id: 1, name: 'apple', owner: null },
        { id: 2, name: 'banana', owner: null },
      ])
      .execute();
    const query = counted((inputs: readonly unknown[]) =>
      db
        .selectFrom('items')
        .select('id')
        .where('name', 'like', `${inputs[0] as string}%`),
    );
    const before = templateFallbacks();
    const ids = async (prefix: string) =>
      (await runTemplateOf(db, 'test:derived', [prefix], query.build)).rows.map((row) => row.id);
    assert.deepEqual(await ids('app'), [1]);
    assert.deepEqual(await ids('ban'), [2]);
    assert.equal(templateFallbacks(), before + 2);
  });
});
