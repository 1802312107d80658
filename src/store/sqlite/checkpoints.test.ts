import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import type { CheckpointReport } from './checkpoint-worker.js';
import { BackgroundCheckpoints } from './checkpoints.js';

const dir = mkdtempSync(join(tmpdir(), 'tidings-checkpoints-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database in `dir` with a few hundred pages written and not yet checkpointed. */
function writtenDatabase(name: string): BetterSqlite3.Database {
  const database = new BetterSqlite3(join(dir, name));
  database.pragma('journal_mode = WAL');
  database.pragma('wal_autocheckpoint = 0');
  database.exec('CREATE TABLE t (body TEXT)');
  const insert = database.prepare('INSERT INTO t (body) VALUES (?)');
  database.transaction(() => {
    for (let i = 0; i < 500; i++) insert.run(`row ${i} `.repeat(200));
  })();
  return database;
}

/** Resolves with `promise`, keeping the event loop alive meanwhile (the checkpoint thread is unref'd). */
async function awaitAlive<T>(promise: Promise<T>): Promise<T> {
  const timer = setInterval(() => {}, 1000);
  try {
    return await promise;
  } finally {
    clearInterval(timer);
  }
}

function autocheckpointPages(database: BetterSqlite3.Database): number {
  return database.pragma('wal_autocheckpoint', { simple: true }) as number;
}

describe('BackgroundCheckpoints', () => {
  it('copies the WAL into the database from another thread, and hands checkpoints back when stopped', async () => {
    const database = writtenDatabase('a.db');
    const checkpoints = new BackgroundCheckpoints(database, join(dir, 'a.db'));
    const reported = new Promise<CheckpointReport>((resolve) => checkpoints.onReport(resolve));
    checkpoints.request();
    // the main connection now checkpoints only as a backstop
    assert.equal(autocheckpointPages(database), 8000);
    const report = await awaitAlive(reported);
    assert.ok(report.log > 100, `WAL frames: ${report.log}`);
    assert.equal(report.checkpointed, report.log);
    await awaitAlive(checkpoints.stop());
    assert.equal(autocheckpointPages(database), 1000);
    assert.deepEqual(database.prepare('SELECT count(*) AS n FROM t').get(), { n: 500 });
    database.close();
  });

  it('leaves checkpoints to the main connection when the thread cannot open the database', async () => {
    const database = writtenDatabase('b.db');
    const checkpoints = new BackgroundCheckpoints(database, join(dir, 'missing', 'b.db'));
    const reports: CheckpointReport[] = [];
    checkpoints.onReport((report) => reports.push(report));
    checkpoints.request();
    for (let i = 0; i < 100 && autocheckpointPages(database) !== 1000; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(autocheckpointPages(database), 1000);
    checkpoints.request();
    await awaitAlive(checkpoints.stop());
    assert.deepEqual(reports, []);
    database.close();
  });
});
