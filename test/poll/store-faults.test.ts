// Issue 12, "Storage and server faults": a store that cannot be written (a full disk) ends a poll run
// with one error, gives back what the run claimed, and leaves nothing half-written; the poll loop of
// `worker` and `serve` survives it and goes on once the store works again. Leases are short and renewed
// while a run works, so a crashed run's feeds are free again within LEASE_MS.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, beforeEach, describe, it } from 'node:test';
import { LEASE_MS } from '../../src/poll/leases.js';
import { runPollLoop, sleep } from '../../src/poll/loop.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { StoreError } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

/** The error better-sqlite3 throws when the disk is full. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' });
}

type Method = 'claimDue' | 'record' | 'release' | 'releaseMany' | 'renewLeases' | 'countClaimable';

/** The store with some of its polling writes failing as a full disk makes them, while `failing` holds. */
function faultyStore(store: Store, failing: (method: Method, call: number) => boolean): Store {
  const calls = new Map<string, number>();
  const polling = new Proxy(store.polling, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const call = (calls.get(String(key)) ?? 0) + 1;
        calls.set(String(key), call);
        if (failing(key as Method, call)) return Promise.reject(diskFull());
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'polling') return polling;
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const FEEDS = 6;

for (const backend of storeBackends()) {
  describe(`a store that cannot be written (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    let ids: number[] = [];
    const clock = testClock();

    before(async () => {
      server = await startServer({
        '/feed': (req, res) =>
          send(res, 200, rss([{ guid: req.url ?? '', title: 'x' }]), {
            'content-type': 'application/rss+xml',
          }),
        // answers after 20 s, far beyond the test: only an abort ends this fetch in time
        '/slow': (_req, res) => {
          const timer = setTimeout(() => send(res, 200, rss([{ guid: 's', title: 'slow' }])), 20_000);
          res.on('close', () => clearTimeout(timer));
        },
      });
    });

    beforeEach(async () => {
      store = await backend.open();
      clock.set('2026-03-01T12:00:00.000Z');
      ids = [];
      for (let i = 0; i < FEEDS; i++)
        ids.push((await addFollowedFeed(store, `${server.url}/feed?n=${i}`, clock.now().toISOString())).id);
    });

    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    /** The feeds another worker can claim now. */
    async function claimableNow(at = clock.now()): Promise<number[]> {
      const claimed = await store.polling.claimDue({
        now: at.toISOString(),
        limit: 100,
        workerId: 'another-worker',
        leaseMs: 1_000,
      });
      for (const feed of claimed) await store.polling.release(feed.id, 'another-worker');
      return claimed.map((feed) => feed.id).sort((a, b) => a - b);
    }

    it('ends the run with a StoreError when the claim fails, fetching nothing', async () => {
      const requests = server.requests.length;
      const faulty = faultyStore(store, (method) => method === 'claimDue');
      await assert.rejects(pollOnce(pollDeps(faulty, clock)), (error: unknown) => {
        assert.ok(error instanceof StoreError);
        assert.equal(error.kind, 'unavailable');
        assert.equal(
          error.message,
          'store: claiming the due feeds failed: database or disk is full (SQLITE_FULL)',
        );
        return true;
      });
      assert.equal(server.requests.length, requests);
      assert.deepEqual(await claimableNow(), ids);
    });

    /** The feeds that have a heartbeat, after checking that only they have entries (stored whole or not at all). */
    async function storedFeeds(): Promise<number[]> {
      const heartbeats = await Promise.all(ids.map((id) => store.heartbeats.list(id, 5)));
      const entries = await Promise.all(ids.map((id) => store.entries.listByFeed(id, 5)));
      assert.deepEqual(
        entries.map((e) => e.length),
        heartbeats.map((h) => h.length),
      );
      return ids.filter((_, i) => (heartbeats[i] as unknown[]).length > 0);
    }

    it('stops at the first poll it cannot store, stores it not at all, and gives every claimed feed back', async () => {
      // one fetch at a time: the first poll is stored, the next cannot be, the rest are never started
      const faulty = faultyStore(store, (method, call) => method === 'record' && call >= 2);
      const deps = pollDeps(faulty, clock, { config: { concurrency: 1 } });
      await assert.rejects(
        pollOnce(deps),
        /storing feed \d+ failed: database or disk is full \(SQLITE_FULL\)/,
      );
      const stored = await storedFeeds();
      assert.equal(stored.length, 1, 'one poll was stored before the disk filled');
      assert.ok(server.requests.length < ids.length + 1, 'the run stopped fetching');
      // given back at once, not when the lease runs out: every feed but the stored one is free now
      assert.deepEqual(
        await claimableNow(),
        ids.filter((id) => !stored.includes(id)),
      );
    });

    it('stops as well when a read of the poll fails for the database (PostgreSQL refusing connections)', async () => {
      // what pg throws while the database does not accept connections (ALTER DATABASE ... ALLOW_CONNECTIONS false)
      const refusing = () =>
        Object.assign(new Error('database "t" is not currently accepting connections'), { code: '55000' });
      const entries = new Proxy(store.entries, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (key === 'hashes') return () => Promise.reject(refusing());
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const reading = new Proxy(store, {
        get(target, key, receiver) {
          if (key === 'entries') return entries;
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      // read before: a feed's first read looks up no stored entries
      for (const id of ids) await store.feeds.update(id, { lastSuccessAt: clock.now().toISOString() });
      const before = server.requests.length;
      await assert.rejects(
        pollOnce(pollDeps(reading, clock, { config: { concurrency: 1 } })),
        /storing feed \d+ failed: database "t" is not currently accepting connections \(55000\)/,
      );
      // the first feed it could not store ended the run: not one fetch_error a feed for what is the database's
      assert.ok(server.requests.length - before <= 2, `${server.requests.length - before} fetches`);
      assert.deepEqual(await claimableNow(), ids);
    });

    it("leaves a run's leases to lapse within LEASE_MS when it cannot even give them back", async () => {
      const faulty = faultyStore(
        store,
        (method, call) =>
          (method === 'record' && call >= 2) ||
          method === 'release' ||
          method === 'releaseMany' ||
          method === 'renewLeases',
      );
      await assert.rejects(pollOnce(pollDeps(faulty, clock, { config: { concurrency: 1 } })), StoreError);
      const stored = await storedFeeds();
      const rest = ids.filter((id) => !stored.includes(id));
      assert.deepEqual(await claimableNow(new Date(clock.now().getTime() + LEASE_MS - 1_000)), []);
      assert.deepEqual(await claimableNow(new Date(clock.now().getTime() + LEASE_MS)), rest);
      assert.equal(LEASE_MS, 60_000);
    });

    it('renews the leases of the feeds it holds while a fetch goes on', async () => {
      const slow = (await addFollowedFeed(store, `${server.url}/slow`, clock.now().toISOString())).id;
      const stop = new AbortController();
      const run = pollOnce(pollDeps(store, clock, { config: { concurrency: 1 } }), {
        feedIds: [slow],
        signal: stop.signal,
        leaseMs: 150,
      });
      const requests = server.requests.length;
      for (let i = 0; i < 300 && server.requests.length === requests; i++)
        await sleep(10, new AbortController().signal);
      // far beyond the first lease: only a renewal keeps the feed from another worker
      clock.advance(3_600_000);
      await sleep(200, new AbortController().signal);
      const free = await claimableNow();
      assert.ok(!free.includes(slow), 'the slow feed is still leased');
      assert.deepEqual(free, ids, 'the others were never claimed by this run');
      stop.abort();
      await run;
      assert.ok((await claimableNow()).includes(slow), 'the stop gave the slow feed back');
    });

    it('keeps the poll loop going through a failing store, and polls once it works again', async () => {
      let broken = true;
      const faulty = faultyStore(store, (method) => broken && method === 'claimDue');
      const stop = new AbortController();
      const loop = runPollLoop(pollDeps(faulty, clock), stop.signal, { retryMs: 20 });
      const polled = async () => (await Promise.all(ids.map((id) => store.heartbeats.list(id, 5)))).flat();
      try {
        await sleep(100, new AbortController().signal);
        assert.deepEqual(await polled(), [], 'nothing polled while broken');
        broken = false;
        for (let i = 0; i < 300 && (await polled()).length < ids.length; i++)
          await sleep(10, new AbortController().signal);
      } finally {
        stop.abort();
        await loop;
      }
      assert.deepEqual(await storedFeeds(), ids);
    });
  });
}

describe('abort listeners of a poll run', () => {
  let server: TestServer;
  let store: Store;
  const [backend] = storeBackends();
  const clock = testClock();

  before(async () => {
    server = await startServer({
      '/slow': (_req, res) => {
        const timer = setTimeout(() => send(res, 200, rss([{ guid: 's', title: 'slow' }])), 20_000);
        res.on('close', () => clearTimeout(timer));
      },
    });
    store = await backend!.open();
    for (let i = 0; i < 16; i++)
      await addFollowedFeed(store, `${server.url}/slow?n=${i}`, clock.now().toISOString());
  });

  after(async () => {
    await server.close();
    await backend!.cleanup();
  });

  it('puts one listener on the caller signal however many fetches run (no MaxListenersExceededWarning)', async () => {
    const stop = new AbortController();
    const deps = pollDeps(store, clock, { config: { concurrency: 16, perHostConcurrency: 16 } });
    const run = pollOnce(deps, { signal: stop.signal });
    for (let i = 0; i < 300 && server.requests.length < 16; i++)
      await sleep(10, new AbortController().signal);
    assert.equal(server.requests.length, 16);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
    stop.abort();
    await run;
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });

  it('leaves no listener behind after a wait of the poll loop', async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 12; i++) await sleep(1, signal);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });
});
