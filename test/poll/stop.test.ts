// Stopping a poller (SIGINT, SIGTERM to `tidings worker` or `serve`) ends its run at once: fetches under
// way are aborted without a heartbeat (the feed did nothing wrong), feeds claimed but not started go back
// to the other workers, and what was fetched before the stop is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runPollLoop } from '../../src/poll/loop.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const [backend] = storeBackends();

describe('stopping a poll run', () => {
  let server: TestServer;
  let store: Store;
  const clock = testClock();
  const ids: number[] = [];

  before(async () => {
    server = await startServer({
      '/fast': (_req, res) =>
        send(res, 200, rss([{ guid: 'a', title: 'fast' }]), { 'content-type': 'application/rss+xml' }),
      // answers after 20 s, far beyond the test: only an abort ends this fetch in time
      '/slow': (_req, res) => {
        const timer = setTimeout(() => send(res, 200, rss([{ guid: 'b', title: 'slow' }])), 20_000);
        res.on('close', () => clearTimeout(timer));
      },
      '/later': (_req, res) => send(res, 200, rss([{ guid: 'c', title: 'later' }])),
    });
    store = await backend!.open();
    for (const path of ['/fast', '/slow', '/later'])
      ids.push((await addFollowedFeed(store, `${server.url}${path}`, clock.now().toISOString())).id);
  });

  after(async () => {
    await server.close();
    await backend!.cleanup();
  });

  it('aborts the fetches under way, starts nothing more, and gives the unstarted feeds back', async () => {
    const [fast, slow, later] = ids as [number, number, number];
    const stop = new AbortController();
    // one fetch at a time: /fast, then /slow (stopped while it waits), and /later never starts
    const deps = pollDeps(store, clock, { config: { concurrency: 1, timeoutMs: 30_000 } });
    const started = Date.now();
    const run = pollOnce(deps, { signal: stop.signal });
    for (let i = 0; i < 300 && !server.requests.some((r) => r.path === '/slow'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    const summary = await run;
    assert.ok(Date.now() - started < 5_000, `the run ended ${Date.now() - started} ms after it started`);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/fast', '/slow'],
    );
    assert.equal(summary.feeds, 1);
    assert.equal((await store.heartbeats.list(fast, 5)).length, 1);
    assert.deepEqual(await store.heartbeats.list(slow, 5), []);
    assert.deepEqual(await store.heartbeats.list(later, 5), []);
    // /slow and /later are free for the next worker now, not when their lease runs out
    const claimed = await store.polling.claimDue({
      now: clock.now().toISOString(),
      limit: 10,
      workerId: 'another-worker',
      leaseMs: 60_000,
    });
    assert.deepEqual(claimed.map((feed) => feed.id).sort(), [slow, later].sort());
    for (const feed of claimed) await store.polling.release(feed.id, 'another-worker');
  });

  it('ends the poll loop at once when the stop came during a run, not after its idle wait', async () => {
    const stop = new AbortController();
    const deps = pollDeps(store, clock, { config: { concurrency: 1, timeoutMs: 30_000 } });
    const requests = server.requests.length;
    const loop = runPollLoop(deps, stop.signal);
    for (let i = 0; i < 300 && server.requests.length === requests; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const stopped = Date.now();
    stop.abort();
    await loop;
    // the loop waits at least a second between runs: an abort seen only after the run was waited out
    assert.ok(Date.now() - stopped < 800, `the loop ended ${Date.now() - stopped} ms after the stop`);
  });
});
