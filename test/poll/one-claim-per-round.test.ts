// Several `tidings poll --once` processes that overlap poll each feed once between them (issue 22: three
// started together on one SQLite database polled some feeds two and three times). The first process
// polls a few feeds alone; the others start after it, while it is still at work, and each feed must
// still get one request and one heartbeat per round: without --force (with a 1 s interval, so that what
// the first polled is due again when the others claim) and with it. Both databases.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/index.js';
import { tidings } from '../helpers/cli.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { rss } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const FEEDS = 60;
/** Requests answered at once in each round before the gate holds the rest: the first process's. */
const FREE = 4;
/** Each process fetches two at a time (per host): three processes hold six requests at the gate. */
const HELD_BY_THREE = 6;

/** What each feed answers: 200, a 304 once it has an ETag, or 500. */
function kindOf(i: number): 'ok' | 'etag' | 'error' {
  return (['ok', 'etag', 'error'] as const)[i % 3] as 'ok' | 'etag' | 'error';
}

/** A server that answers FREE requests, then holds the others until `open()`; it counts requests per path. */
class GatedFarm {
  server!: TestServer;
  counts = new Map<string, number>();
  private held: (() => void)[] = [];
  private free = FREE;
  private isOpen = false;

  async start(): Promise<void> {
    this.server = await startServer({ '/f': (req, res) => this.answer(req.url ?? '', req.headers, res) });
  }

  /** A new round: counts from zero, the gate closed again. */
  reset(): void {
    this.counts.clear();
    this.free = FREE;
    this.isOpen = false;
  }

  get heldCount(): number {
    return this.held.length;
  }

  open(): void {
    this.isOpen = true;
    for (const answer of this.held.splice(0)) answer();
  }

  private answer(path: string, headers: Record<string, unknown>, res: ServerResponse): void {
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    const i = Number(new URL(path, 'http://x').searchParams.get('i'));
    const reply = () => {
      const kind = kindOf(i);
      if (kind === 'error') return send(res, 500, 'broken');
      if (kind === 'etag' && headers['if-none-match'] === '"v1"') return send(res, 304);
      const body = rss([{ guid: `${i}-${this.counts.get(path)}-${Math.random()}`, title: 'x' }]);
      send(res, 200, body, {
        'content-type': 'application/rss+xml',
        ...(kind === 'etag' ? { etag: '"v1"' } : {}),
      });
    };
    if (this.isOpen || this.free > 0) {
      this.free--;
      reply();
    } else this.held.push(reply);
  }
}

async function waitFor(what: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await what()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}

// The two databases side by side: each takes a few seconds, mostly starting processes.
describe('one claim per round', { concurrency: true }, () => {
  for (const backend of storeBackends()) {
    describe(`overlapping poll --once processes (${backend.name})`, { skip: backend.skip }, () => {
      const farm = new GatedFarm();
      let store: Store;
      let env: Record<string, string>;
      const ids: number[] = [];

      before(async () => {
        await farm.start();
        store = await backend.open();
        const now = new Date().toISOString();
        for (let i = 0; i < FEEDS; i++)
          ids.push((await addFollowedFeed(store, `${farm.server.url}/f?i=${i}`, now)).id);
        env = {
          TIDINGS_DATABASE_URL: backend.urlOf(store),
          TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
          TIDINGS_CONCURRENCY: '2',
          TIDINGS_POLL_INTERVAL: '1s',
          TIDINGS_FEED_ICONS: 'false',
          TIDINGS_PARSE_WORKERS: '0',
        };
      });

      after(async () => {
        await farm.server.close();
        await backend.cleanup();
      });

      /** Feeds whose last check is after `since`. */
      async function checkedSince(since: string): Promise<number> {
        return (await store.feeds.list()).filter((f) => (f.lastCheckedAt ?? '') > since).length;
      }

      async function round(n: number, args: string[]): Promise<void> {
        farm.reset();
        const started = new Date().toISOString();
        const first = tidings(['poll', '--once', ...args], env);
        await waitFor(async () => (await checkedSince(started)) >= FREE);
        // the others start while the first holds feeds it has not polled yet (at the gate)
        const others = [tidings(['poll', '--once', ...args], env), tidings(['poll', '--once', ...args], env)];
        await waitFor(() => farm.heldCount >= HELD_BY_THREE);
        farm.open();
        const runs = await Promise.all([first, ...others]);
        for (const run of runs) assert.equal(run.code, 0, run.stderr);
        const polled = runs.map((run) => Number(/polled (\d+) feed/.exec(run.stdout)?.[1]));
        assert.ok(
          polled.every((count) => count > 0),
          `each process polled (${polled.join(', ')})`,
        );
        assert.equal(
          polled.reduce((a, b) => a + b, 0),
          FEEDS,
        );
        const twice = [...farm.counts].filter(([, count]) => count !== 1);
        assert.deepEqual(twice, [], 'one request per feed');
        assert.equal(farm.counts.size, FEEDS);
        for (const id of ids) assert.equal((await store.heartbeats.list(id, 10)).length, n, `feed ${id}`);
      }

      it('one request and one heartbeat per feed in a round of due feeds, then in a forced one', async () => {
        await round(1, []);
        await round(2, ['--force']);
      });
    });
  }
});
