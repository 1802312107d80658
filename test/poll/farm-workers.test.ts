// Two `tidings poll --once` processes on one PostgreSQL database poll the shared feed farm
// (../shared/perf/feedfarm.mjs) at the same time: every feed is fetched exactly once between them. The
// farm's feeds are imported in this process (a CLI import of 300 feeds took 3.6 s more; 120 feeds keep both processes busy at once), and their sites
// do not resolve: icon lookups must hold neither process (issue 22: this test took 50 s).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importOpml } from '../../src/subscriptions/index.js';
import { tidings } from '../helpers/cli.js';
import { pollDeps, testClock } from '../helpers/poll-harness.js';
import { SHARED_DIR, SHARED_SKIP } from '../helpers/shared.js';
import { type StoreBackend, storeBackends } from '../helpers/temp-store.js';

const FEEDS = 120;
const FARM = join(SHARED_DIR ?? '', 'perf/feedfarm.mjs');
const backend = storeBackends().find((b) => b.name === 'postgres') as StoreBackend;
const skip = backend.skip ?? SHARED_SKIP;

describe('two poll processes on one PostgreSQL database, against the feed farm', { skip }, () => {
  let farm: ChildProcess | undefined;
  let dir: string;
  let base: string;
  let env: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-farm-'));
    const ready = join(dir, 'ready');
    // 50-150 ms per answer and 8 fetches at a time: one process alone would need about 3.75 s
    farm = spawn(
      process.execPath,
      [
        FARM as string,
        ...['--feeds', String(FEEDS), '--port', '0', '--latency', '50-150', '--hosts', '4'],
        ...['--trouble', '0', '--slow', '0', '--huge', '0', '--max-seconds', '300'],
        ...['--ready-file', ready, '--opml-out', join(dir, 'farm.opml')],
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
    base = readFileSync(ready, 'utf8').trim();
    const store = await backend.open();
    const clock = testClock();
    const deps = { store, poll: pollDeps(store, clock), now: () => new Date() };
    const imported = await importOpml(deps, readFileSync(join(dir, 'farm.opml'), 'utf8'), {
      fetchNow: false,
    });
    assert.equal(imported.added, FEEDS);
    env = {
      TIDINGS_DATABASE_URL: backend.urlOf(store),
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
      TIDINGS_CONCURRENCY: '8',
      TIDINGS_LOG_LEVEL: 'silent',
    };
  });

  after(async () => {
    farm?.kill();
    await backend.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches every feed exactly once between them', async () => {
    const runs = await Promise.all([tidings(['poll', '--once'], env), tidings(['poll', '--once'], env)]);
    const polled = runs.map((run) => {
      assert.equal(run.code, 0);
      return Number(/polled (\d+) feeds/.exec(run.stdout)?.[1]);
    });
    assert.equal((polled[0] ?? 0) + (polled[1] ?? 0), FEEDS);
    assert.ok(
      polled.every((n) => n > 0),
      `both processes polled (${polled.join(' and ')})`,
    );
    const stats = (await (await fetch(`${base}/__stats?paths=1`)).json()) as {
      requests: number;
      paths: Record<string, { count: number }>;
    };
    assert.equal(stats.requests, FEEDS, 'one request per feed');
    const counts = Object.values(stats.paths).map((p) => p.count);
    assert.equal(counts.length, FEEDS);
    assert.ok(
      counts.every((n) => n === 1),
      'no URL fetched twice',
    );
  });
});
