// What apps found (issue 22): stream/items/contents returns every id asked for, and no page of
// stream/contents, the Atom stream or stream/items/contents fails for size: a page ends at its byte
// budget with a continuation that gets the rest.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_PAGE_BYTES } from '../../src/reading/page-budget.js';
import { openSyncHarness, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends, testEntry, testPoll } from '../helpers/temp-store.js';
import { type GReaderClient, type Json, signIn } from './harness.js';

const long = (id: number) => `tag:google.com,2005:reader/item/${id.toString(16).padStart(16, '0')}`;
const items = (answer: Json) => answer['items'] as Json[];

/** Adds a followed feed (in the channel "Big") with these entries, stored as a poll would store them. */
async function feedWith(h: SyncHarness, url: string, entries: ReturnType<typeof testEntry>[]) {
  const now = h.clock.now().toISOString();
  const feed = await h.store.feeds.add(url, now);
  const channel =
    (await h.store.channels.list()).find((c) => c.name === 'Big') ?? (await h.store.channels.create('Big'));
  await h.store.channels.subscribe(channel.id, feed.id, now);
  const { insertedIds } = await h.store.polling.record(testPoll(feed.id, entries, now));
  return { feedId: feed.id, ids: [...insertedIds].sort((a, b) => a - b) };
}

for (const backend of storeBackends()) {
  describe(`google reader contents (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let app: GReaderClient;

    before(async () => {
      h = await openSyncHarness(backend);
      app = await signIn(h);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('gives stream/items/contents every one of 1,685 ids, in the order asked, in every id form', async () => {
      const entries = Array.from({ length: 1685 }, (_, i) => testEntry(`many-${i}`));
      const { ids } = await feedWith(h, 'https://many.example/feed', entries);
      assert.equal(ids.length, 1685);
      const asked = [...ids].reverse();
      const forms = asked.map((id, i) =>
        i % 3 === 0 ? long(id) : i % 3 === 1 ? String(id) : id.toString(16).padStart(16, '0'),
      );
      const res = await app.post('stream/items/contents', { i: forms });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const answer = (await res.json()) as Json;
      assert.deepEqual(
        items(answer).map((item) => item['id']),
        asked.map(long),
      );
      assert.equal(items(answer)[0]?.['title'], 'Title many-1684');
    });

    describe('a byte budget per page', () => {
      // six entries of about 30% of a page's budget each (4.8 MB): two pages of three
      const size = Math.ceil(API_PAGE_BYTES * 0.3);
      let big: { feedId: number; ids: number[] };

      before(async () => {
        const entries = Array.from({ length: 6 }, (_, i) =>
          testEntry(`big-${i}`, { contentHtml: `<p>${String(i).repeat(size)}</p>` }),
        );
        big = await feedWith(h, 'https://big.example/feed', entries);
      });

      it('ends a stream/contents page at its budget, and the continuation gets the rest', async () => {
        const first = await app.json(`stream/contents/feed%2F${big.feedId}?n=1000`);
        const firstIds = items(first).map((item) => item['id']);
        assert.equal(firstIds.length, 3);
        assert.equal(typeof first['continuation'], 'string');
        const summary = (items(first)[0]?.['summary'] ?? {}) as Json;
        const content = summary['content'] as string;
        assert.equal(content.length, size + 7);
        const rest = await app.json(`stream/contents/feed%2F${big.feedId}?n=1000&c=${first['continuation']}`);
        assert.equal(rest['continuation'], undefined);
        const all = [...firstIds, ...items(rest).map((item) => item['id'])];
        assert.deepEqual(all, [...big.ids].reverse().map(long));
      });

      it('ends an Atom page at its budget too', async () => {
        const res = await app.atom(`feed%2F${big.feedId}?n=1000&r=o`);
        assert.equal(res.status, 200);
        const text = await res.text();
        const continuation = /<gr:continuation>(\d+)<\/gr:continuation>/.exec(text)?.[1];
        assert.ok(continuation);
        assert.equal(text.match(/<entry /g)?.length, 3);
        const rest = await (await app.atom(`feed%2F${big.feedId}?n=1000&r=o&c=${continuation}`)).text();
        assert.equal(rest.match(/<entry /g)?.length, 3);
        assert.doesNotMatch(rest, /gr:continuation/);
      });

      it('writes stream/items/contents of more than a budget whole', async () => {
        const res = await app.post('stream/items/contents', { i: big.ids.map(String) });
        const answer = (await res.json()) as Json;
        assert.deepEqual(
          items(answer).map((item) => item['id']),
          big.ids.map(long),
        );
      });
    });
  });
}
