// Issue 12, "Storage and server faults", with a real full disk: `tidings poll --once` on a SQLite
// database in a small tmpfs that has filled up ends with one line and exit 1, stores no poll half, and
// gives back what it claimed. Mounting needs root; without it the same paths are covered by the injected
// write errors of test/poll/store-faults.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../src/store/index.js';
import { tidings } from './helpers/cli.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { rss } from './helpers/poll-harness.js';
import { addFollowedFeed } from './helpers/temp-store.js';

const FEEDS = 150;

/** Why a tmpfs cannot be mounted here, or undefined when it can. */
function cannotMount(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: a full disk is simulated in test/poll/store-faults.test.ts';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', dir], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'mount -t tmpfs is not allowed here: a full disk is simulated in test/poll/store-faults.test.ts';
  }
}

/** Fills the file system of `dir` up to `leaveBytes` free. */
function fillDisk(dir: string, leaveBytes: number): void {
  const { bavail, bsize } = statfsSync(dir);
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(bsize);
  try {
    for (let left = bavail * bsize - leaveBytes; left > 0; left -= bsize) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'tidings-full-disk-'));
const skip = cannotMount(dir);

describe('tidings poll --once on a full disk', { skip }, () => {
  let server: TestServer;
  const url = `sqlite:${join(dir, 't.db')}`;

  before(async () => {
    const description = 'y'.repeat(2_000);
    server = await startServer({
      '/feed': (req, res) =>
        send(
          res,
          200,
          rss(
            Array.from({ length: 20 }, (_, i) => ({
              guid: `${req.url}-${i}`,
              title: `entry ${i}`,
              description,
            })),
          ),
          { 'content-type': 'application/rss+xml' },
        ),
    });
    const store = await openStore(url);
    await store.migrate();
    for (let i = 0; i < FEEDS; i++)
      await addFollowedFeed(store, `${server.url}/feed?n=${i}`, new Date().toISOString());
    await store.close();
  });

  after(async () => {
    await server?.close();
    if (skip === undefined) execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends with one line and exit 1, stores nothing half, and gives its claims back', async () => {
    // room to open the database and claim, not to store the polls' entries
    fillDisk(dir, 200 * 1024);
    const run = await tidings(['poll', '--once'], {
      TIDINGS_DATABASE_URL: url,
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
    });
    rmSync(join(dir, 'filler'));
    assert.equal(run.code, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('tidings: '));
    assert.equal(errors.length, 1, run.stderr);
    assert.match(
      errors[0] as string,
      /^tidings: store: .* failed: database or disk is full \(SQLITE_FULL\)$/,
    );
    assert.ok(
      run.stderr
        .split('\n')
        .every((line) => line === '' || line.startsWith('tidings: ') || / of 150 feeds$/.test(line)),
      run.stderr,
    );

    const store = await openStore(url);
    try {
      let polled = 0;
      for (const feed of await store.feeds.list()) {
        const heartbeats = (await store.heartbeats.list(feed.id, 5)).length;
        const entries = (await store.entries.listByFeed(feed.id, 50)).length;
        // a poll is stored whole (its 20 entries and its heartbeat) or not at all
        assert.deepEqual([heartbeats, entries], heartbeats === 0 ? [0, 0] : [1, 20], `feed ${feed.id}`);
        polled += heartbeats;
      }
      const claimed = await store.polling.claimDue({
        now: new Date().toISOString(),
        limit: 1_000,
        workerId: 'another-worker',
        leaseMs: 1_000,
      });
      assert.equal(claimed.length, FEEDS - polled, 'every feed not polled is free at once');
    } finally {
      await store.close();
    }
    const database = new BetterSqlite3(join(dir, 't.db'), { readonly: true });
    assert.equal(database.pragma('integrity_check', { simple: true }), 'ok');
    database.close();
  });
});
