// The poller's limits on one document: the entries it keeps (TIDINGS_MAX_ENTRIES_PER_FEED), the bytes one
// field keeps (1 MiB of content, issue 22) and the time it may take to parse (TIDINGS_PARSE_TIMEOUT_MS):
// past it the feed gets a parse_error saying so. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_CONTENT_BYTES } from '../../src/parse/index.js';
import { ParsePool } from '../../src/poll/parse-pool.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const ITEMS = Array.from({ length: 30 }, (_, i) => ({ guid: `g${i}`, title: `Item ${i}` }));
const PARAGRAPH = '&lt;p&gt;A paragraph of &lt;b&gt;some&lt;/b&gt; words.&lt;/p&gt;';
// 2 MiB of escaped HTML in the second item's description
const LARGE = [
  { guid: 'small', title: 'Small', description: PARAGRAPH },
  { guid: 'large', title: 'Large', description: PARAGRAPH.repeat((2 * MAX_CONTENT_BYTES) / 36) },
];

for (const backend of storeBackends()) {
  describe(`poll limits on one document (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    const clock = testClock();
    const pool = new ParsePool(1, 1);

    before(async () => {
      server = await startServer({
        '/feed': (_req, res) => send(res, 200, rss(ITEMS), { 'content-type': 'application/rss+xml' }),
        '/large': (_req, res) => send(res, 200, rss(LARGE), { 'content-type': 'application/rss+xml' }),
      });
      store = await backend.open();
    });

    after(async () => {
      await pool.close();
      await server.close();
      await backend.cleanup();
    });

    it('stores the first entries of a feed, as many as maxEntriesPerFeed, and says so', async () => {
      const feed = await addFollowedFeed(store, `${server.url}/feed?limit`, clock.now().toISOString());
      await pollOnce(pollDeps(store, clock, { config: { maxEntriesPerFeed: 10 } }), {
        feedIds: [feed.id],
        force: true,
      });
      const entries = await store.entries.listByFeed(feed.id, 100);
      assert.deepEqual(
        entries.map((e) => e.guid).sort(),
        ITEMS.slice(0, 10)
          .map((i) => i.guid)
          .sort(),
      );
      const stored = await store.feeds.get(feed.id);
      assert.ok(stored?.diagnostics?.some((d) => d.code === 'entries.truncated'));
    });

    it("stores at most 1 MiB of an entry's content, cut at an element boundary, and the feed says so", async () => {
      const feed = await addFollowedFeed(store, `${server.url}/large`, clock.now().toISOString());
      // the harness takes 1 MiB bodies; the default is 20 MiB
      const deps = pollDeps(store, clock, { config: { maxBodyBytes: 20 * 1024 * 1024 } });
      await pollOnce(deps, { feedIds: [feed.id], force: true });
      const entries = await store.entries.listByFeed(feed.id, 10);
      const large = entries.find((e) => e.guid === 'large');
      const html = large?.contentHtml ?? '';
      assert.ok(Buffer.byteLength(html) <= MAX_CONTENT_BYTES, `${Buffer.byteLength(html)} bytes`);
      assert.ok(Buffer.byteLength(html) > MAX_CONTENT_BYTES - 100, `${Buffer.byteLength(html)} bytes`);
      assert.match(html, /^<p>A paragraph.*<\/p>$/s);
      assert.equal(
        entries.find((e) => e.guid === 'small')?.contentHtml,
        '<p>A paragraph of <b>some</b> words.</p>',
      );
      const stored = await store.feeds.get(feed.id);
      assert.equal(stored?.status, 'ok');
      const cut = stored?.diagnostics.find((d) => d.code === 'field.too-long');
      assert.equal(cut?.entry, 1);
      assert.equal(cut?.field, 'summary');
      assert.match(cut?.message ?? '', /over the limit of 1 MiB/);
    });

    it('gives a feed whose document takes too long to parse a parse_error saying so', async () => {
      const feed = await addFollowedFeed(store, `${server.url}/feed?slow`, clock.now().toISOString());
      const deps = { ...pollDeps(store, clock), preparer: pool };
      const summary = await pollOnce(deps, { feedIds: [feed.id], force: true });
      assert.equal(summary.byStatus['parse_error'], 1);
      const heartbeat = (await store.heartbeats.list(feed.id, 1))[0];
      assert.equal(heartbeat?.status, 'parse_error');
      assert.match(heartbeat?.message ?? '', /took longer than 1 ms to parse/);
      const stored = await store.feeds.get(feed.id);
      assert.equal(stored?.status, 'parse_error');
      assert.equal(stored?.errorCount, 1);
      assert.equal((await store.entries.listByFeed(feed.id, 10)).length, 0);
    });
  });
}
