// A fetch gives its slot back as soon as its body is in: processing (parsing, storing) does not hold up
// the next fetch, at most 2 x concurrency fetched documents wait (memory stays bounded), and the run
// still waits for every document to be processed before it ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inProcessPreparer, type Preparer } from '../../src/poll/parse-pool.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const FEEDS = 4;
const [backend] = storeBackends();

describe('poll pipeline: fetching does not wait for processing', () => {
  let server: TestServer;
  let store: Store;
  const clock = testClock();

  before(async () => {
    server = await startServer({
      '/feed': (req, res) =>
        send(res, 200, rss([{ guid: req.url ?? '', title: 'x' }]), { 'content-type': 'application/rss+xml' }),
    });
    store = await backend!.open();
    for (let i = 0; i < FEEDS; i++)
      await addFollowedFeed(store, `${server.url}/feed?n=${i}`, clock.now().toISOString());
  });

  after(async () => {
    await server.close();
    await backend!.cleanup();
  });

  it('fetches on with one slot while documents wait to be processed, up to two of them', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let prepared = 0;
    const preparer: Preparer = {
      prepare: async (job) => {
        await gate;
        prepared++;
        return inProcessPreparer.prepare(job);
      },
      close: async () => {},
    };
    const deps = { ...pollDeps(store, clock, { config: { concurrency: 1 } }), preparer };
    const run = pollOnce(deps);
    const fetched = async (n: number) => {
      for (let i = 0; i < 200 && server.requests.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    await fetched(2);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(server.requests.length, 2, 'a second fetch while the first document waits, and no third');
    assert.equal(prepared, 0);
    open();
    const summary = await run;
    assert.equal(summary.feeds, FEEDS);
    assert.equal(prepared, FEEDS);
    assert.ok((await store.feeds.list()).every((f) => f.status === 'ok'));
  });
});
