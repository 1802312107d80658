// Several pollers on one database split the due feeds: no feed is fetched twice (both backends; on
// PostgreSQL the claim uses FOR UPDATE SKIP LOCKED).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const FEEDS = 60;

for (const backend of storeBackends()) {
  describe(`two pollers on one database (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    let peer: Store;
    const clock = testClock();

    before(async () => {
      server = await startServer({
        '/feed': (req, res) => {
          // a little latency so that both pollers are busy at the same time
          setTimeout(
            () =>
              send(res, 200, rss([{ guid: req.url ?? '', title: 'x' }]), {
                'content-type': 'application/rss+xml',
              }),
            20,
          );
        },
      });
      store = await backend.open();
      peer = await backend.openPeer(store);
      for (let i = 0; i < FEEDS; i++)
        await addFollowedFeed(store, `${server.url}/feed?n=${i}`, clock.now().toISOString());
    });

    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    it('fetches every due feed exactly once between them', async () => {
      const config = { concurrency: 4 };
      const [a, b] = await Promise.all([
        pollOnce(pollDeps(store, clock, { config, workerId: 'worker-a' })),
        pollOnce(pollDeps(peer, clock, { config, workerId: 'worker-b' })),
      ]);
      assert.equal(a.feeds + b.feeds, FEEDS);
      assert.ok(a.feeds > 0 && b.feeds > 0, `both pollers worked (${a.feeds} and ${b.feeds})`);
      const paths = server.requests.map((r) => r.path);
      assert.equal(new Set(paths).size, paths.length, 'no URL was fetched twice');
      assert.equal(paths.length, FEEDS);
      const feeds = await store.feeds.list();
      assert.ok(feeds.every((f) => f.status === 'ok'));
    });
  });
}
