import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { addFollowedFeed, minutesAfterT0, testEntry, testPoll } from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';
import { openSqliteDatabase, openSqliteStore } from './dialect.js';
import { ReadPool, UNANSWERED } from './read-pool.js';
import { INLINE_BELOW_MS, ReadTimes } from './read-times.js';

// A query that keeps SQLite busy for a while (counting through a recursive CTE), written as a SELECT so
// that it is routed to a read thread.
const SLOW_COUNT =
  'SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c) AS n';

describe('SQLite read threads', () => {
  let dir: string;
  let store: Store;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tidings-read-pool-'));
    // every read in a thread (none is ever fast enough to run inline)
    store = openSqliteStore(join(dir, 'pool.db'), { readThreads: 2, inlineBelowMs: 0 });
    await store.migrate();
  });

  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads what was written just before, entries and blobs alike', async () => {
    const feed = await addFollowedFeed(store, 'https://example.org/pool.xml', minutesAfterT0(0));
    const channel = (await store.channels.list()).find((c) => c.name === 'Test');
    assert.ok(channel);
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    // each read twice: a statement's first run is timed inline, later ones go to a thread (inlineBelowMs 0)
    for (const round of [1, 2]) {
      await store.polling.record(testPoll(feed.id, [testEntry(`a${round}`), testEntry(`b${round}`)]));
      const page = await store.reading.timeline({ channelId: channel.id, limit: 10 });
      const expected = round === 1 ? ['a1', 'b1'] : ['a1', 'a2', 'b1', 'b2'];
      assert.deepEqual(page.entries.map((entry) => entry.guid).sort(), expected);
      await store.icons.save(feed.id, { contentType: `image/png${round}`, bytes }, minutesAfterT0(round));
      const icon = await store.icons.get(feed.id);
      assert.equal(icon?.contentType, `image/png${round}`);
      assert.deepEqual([...(icon?.bytes ?? [])], [...bytes]);
    }
  });

  it('keeps the event loop free while a read runs', async () => {
    const pool = new ReadPool(join(dir, 'pool.db'), 1, 5000);
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      const read = await pool.run({ sql: SLOW_COUNT, parameters: [] });
      clearInterval(timer);
      assert.notEqual(read, UNANSWERED);
      assert.deepEqual(read === UNANSWERED ? undefined : read.rows, [{ n: 3000000 }]);
      // on the main thread the count would have held every timer back until it ended
      assert.ok(ticks > 3, `the main thread ticked ${ticks} times during the read`);
    } finally {
      await pool.close();
    }
  });

  it('hands back statements that write, and raises SQLite errors with their codes', async () => {
    const pool = new ReadPool(join(dir, 'pool.db'), 1, 5000);
    try {
      assert.equal(
        await pool.run({ sql: "DELETE FROM settings WHERE key = 'x'", parameters: [] }),
        UNANSWERED,
      );
      await assert.rejects(
        pool.run({ sql: 'SELECT * FROM no_such_table', parameters: [] }),
        (error: Error) => {
          assert.match(error.message, /no such table/);
          assert.equal((error as Error & { code?: string }).code, 'SQLITE_ERROR');
          return true;
        },
      );
    } finally {
      await pool.close();
    }
    assert.equal(await pool.run({ sql: 'SELECT 1', parameters: [] }), UNANSWERED);
  });

  it('hands every read back when its threads cannot open the database', async () => {
    const pool = new ReadPool(join(dir, 'no-such.db'), 2, 5000);
    try {
      const answers = await Promise.all([1, 2, 3].map(() => pool.run({ sql: 'SELECT 1', parameters: [] })));
      assert.deepEqual(answers, [UNANSWERED, UNANSWERED, UNANSWERED]);
      assert.equal(pool.size, 0);
    } finally {
      await pool.close();
    }
  });

  it('answers many reads at once, in any order, each its own rows', async () => {
    const pool = new ReadPool(join(dir, 'pool.db'), 2, 5000);
    try {
      const answers = (
        await Promise.all(
          Array.from({ length: 50 }, (_, i) => pool.run({ sql: 'SELECT ? AS n', parameters: [i] })),
        )
      ).map((read) => (read === UNANSWERED ? undefined : read.rows));
      assert.deepEqual(
        answers,
        Array.from({ length: 50 }, (_, i) => [{ n: i }]),
      );
    } finally {
      await pool.close();
    }
  });
});

describe('which reads run inline', () => {
  it('times a statement inline until the threads start, then in a thread; moves it by its typical time', () => {
    const times = new ReadTimes();
    assert.equal(times.route('SELECT 1', false), 'inline');
    assert.equal(times.route('SELECT 1', true), 'thread');
    times.record('SELECT 1', 0.2);
    assert.equal(times.route('SELECT 1', true), 'inline');
    // one slow run among fast ones (a preempted thread) leaves it inline
    for (let i = 0; i < 10; i++) times.record('SELECT 1', 0.1);
    times.record('SELECT 1', INLINE_BELOW_MS * 3);
    assert.equal(times.route('SELECT 1', true), 'inline');
    // slow run after run: in a thread, then inline again a few fast runs after it is fast again
    for (let i = 0; i < 5; i++) times.record('SELECT 1', INLINE_BELOW_MS * 10);
    assert.equal(times.route('SELECT 1', false), 'thread');
    let runs = 0;
    while (times.route('SELECT 1', true) === 'thread' && runs < 1000) {
      times.record('SELECT 1', 0.1);
      runs += 1;
    }
    assert.ok(runs > 3 && runs < 20, `inline again after ${runs} fast runs`);
    // a first run that was slow (a cold cache) counts until fast runs outweigh it
    const cold = new ReadTimes();
    cold.record('SELECT 3', INLINE_BELOW_MS * 5);
    assert.equal(cold.route('SELECT 3', true), 'thread');
    // slow every other run: never inline
    const flaky = new ReadTimes();
    for (let i = 0; i < 300; i++) {
      flaky.record('SELECT 2', i % 2 === 0 ? INLINE_BELOW_MS * 3 : 0.1);
      if (i > 0) assert.equal(flaky.route('SELECT 2', true), 'thread');
    }
  });

  it('forgets the least recently used statements past its bound', () => {
    const times = new ReadTimes();
    for (let i = 0; i < 600; i++) times.record(`SELECT ${i}`, 0.1);
    assert.equal(times.route('SELECT 0', true), 'thread');
    assert.equal(times.route('SELECT 599', true), 'inline');
  });
});

describe('reads beside a transaction', () => {
  for (const inlineBelowMs of [0, 1000]) {
    it(`never see its uncommitted rows (${inlineBelowMs === 0 ? 'in a thread' : 'inline'})`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tidings-read-tx-'));
      const { db } = openSqliteDatabase(join(dir, 'tx.db'), { readThreads: 1, inlineBelowMs });
      try {
        await sql`CREATE TABLE t (x INTEGER)`.execute(db);
        const count = async () =>
          (await db
            .selectFrom('t' as never)
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()) as { n: number };
        // time the statement once (inline), so that it then runs where inlineBelowMs sends it
        assert.equal((await count()).n, 0);
        await db.transaction().execute(async (trx) => {
          await sql`INSERT INTO t VALUES (1)`.execute(trx);
          // the transaction sees its row; a read beside it, while it is open, does not
          const inside = await trx
            .selectFrom('t' as never)
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow();
          assert.equal((inside as { n: number }).n, 1);
          assert.equal((await count()).n, 0);
        });
        assert.equal((await count()).n, 1);
      } finally {
        await db.destroy();
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
