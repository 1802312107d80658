import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { addFollowedFeed, testEntry, testPoll } from '../../../test/helpers/temp-store.js';
import { openStore } from '../open.js';
import type { Database } from '../schema.js';
import { openSqliteDatabase } from '../sqlite/dialect.js';
import { PollWriter } from './group-commit.js';
import { pollRows } from './poll-writes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PollWriter (SQLite group commit)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-group-commit-'));
  const path = join(dir, 't.db');
  let db: Kysely<Database>;
  const feedIds: number[] = [];
  let guid = 0;

  before(async () => {
    const store = await openStore(`sqlite:${path}`);
    await store.migrate();
    for (const n of [1, 2, 3])
      feedIds.push(
        (await addFollowedFeed(store, `https://example.org/${n}.xml`, new Date().toISOString())).id,
      );
    await store.close();
    db = openSqliteDatabase(path).db;
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = (feedId: number) => pollRows('sqlite', testPoll(feedId, [testEntry(`g${guid++}`)]));

  it('writes a lone poll at once, and polls that come together in one transaction', async () => {
    // each write notes the number of batches written before its own: writes of one batch note the same
    let written = 0;
    const noted: number[] = [];
    const writer = new PollWriter(db, () => written++);
    const counted = (feedId: number) =>
      writer.write(rows(feedId)).then((result) => {
        noted.push(written);
        return result;
      });
    const batchSizes = () => [...new Set(noted)].map((n) => noted.filter((m) => m === n).length);
    // a lone poll waits the short gathering (10 ms), not the busy one (100 ms): it is written before a
    // 60 ms timer started with it fires. Timers fire in the order they are due however late the machine
    // runs them, so this holds on a loaded machine, where a bound on the clock did not (151 ms once)
    let timerFired = false;
    const timer = setTimeout(() => {
      timerFired = true;
    }, 60);
    const alone = await counted(feedIds[0] as number);
    clearTimeout(timer);
    assert.equal(alone.insertedIds.length, 1);
    assert.equal(timerFired, false, 'a lone poll waited as long as a busy one');
    await Promise.all([counted(feedIds[0] as number), counted(feedIds[1] as number)]);
    // polls now come together: one 20 ms after another still joins the same transaction
    const spaced = [counted(feedIds[0] as number)];
    await sleep(20);
    spaced.push(counted(feedIds[1] as number));
    await sleep(20);
    spaced.push(counted(feedIds[2] as number));
    const results = await Promise.all(spaced);
    assert.ok(results.every((result) => result.insertedIds.length === 1));
    assert.deepEqual(batchSizes().slice(0, 2), [1, 2]);
    assert.ok(
      batchSizes().length < 5,
      `three polls 20 ms apart took ${batchSizes().length - 2} transactions`,
    );
  });
});
