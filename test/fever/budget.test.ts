// A byte budget per page of Fever's `items` (issue 22: 31 entries of 19 MB made it answer 500 at
// 4.8 GB): since_id and max_id pages end early and the app's next page gets the rest; with_ids gives
// every item asked, written a budget at a time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addBigEntries, BIG_ENTRY_CHARS } from '../helpers/big-entries.js';
import { FEVER_KEY, openSyncHarness, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

type Body = Record<string, unknown>;

for (const backend of storeBackends()) {
  describe(`fever items within a byte budget (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let ids: number[];
    let feedId: number;

    const items = async (query: string) => {
      const res = await h.app.request(`/api/fever?api&${query}`, {
        method: 'POST',
        body: new URLSearchParams({ api_key: FEVER_KEY }),
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Body;
      assert.equal(body['auth'], 1);
      return body;
    };
    const idsOf = (body: Body) => (body['items'] as Body[]).map((item) => item['id'] as number);

    before(async () => {
      h = await openSyncHarness(backend);
      const channel = await h.store.channels.create('Big');
      ({ ids, feedId } = await addBigEntries(
        h.store,
        'https://big.example/feed',
        channel,
        6,
        h.clock.now().toISOString(),
      ));
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('ends a since_id page at its budget; the next since_id gets the rest', async () => {
      const first = await items('items&since_id=0');
      assert.deepEqual(idsOf(first), ids.slice(0, 3));
      assert.equal(first['total_items'], 6);
      const html = (first['items'] as Body[])[0]?.['html'] as string;
      assert.equal(html.length, BIG_ENTRY_CHARS + 7);
      const rest = await items(`items&since_id=${ids[2]}`);
      assert.deepEqual(idsOf(rest), ids.slice(3));
    });

    it('ends a max_id page at its budget, newest first; the next max_id gets the rest', async () => {
      const first = await items('items&max_id=0');
      assert.deepEqual(idsOf(first), ids.slice(3).reverse());
      const rest = await items(`items&max_id=${ids[3]}`);
      assert.deepEqual(idsOf(rest), ids.slice(0, 3).reverse());
    });

    it('gives every item with_ids asks for, whatever their size', async () => {
      const all = await items(`items&with_ids=${ids.join(',')}`);
      assert.deepEqual(idsOf(all), ids);
      assert.equal(all['total_items'], 6);
    });

    it('lists a removed feed kept for its big saved entries, and all of them as saved', async () => {
      await items(`mark=item&as=saved&id=${ids[0]}`);
      for (const id of ids.slice(1)) await items(`mark=item&as=saved&id=${id}`);
      await h.store.feeds.remove(feedId);
      const feeds = (await items('feeds'))['feeds'] as Body[];
      assert.deepEqual(
        feeds.map((feed) => feed['id']),
        [feedId],
      );
      assert.equal((await items('saved_item_ids'))['saved_item_ids'], ids.join(','));
    });
  });
}
