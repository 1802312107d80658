// A Microsub timeline page holds at most a byte budget of entries (issue 22, src/reading/page-budget.ts):
// past it, the page ends early and its cursors page on to the rest, with `after` and with `before`; a
// search page the same, with `after`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeCursor } from '../../src/store/index.js';
import { addBigEntries } from '../helpers/big-entries.js';
import { minutesAfterT0, storeBackends } from '../helpers/temp-store.js';
import { type Harness, openHarness } from './harness.js';

type Page = { items: Record<string, unknown>[]; paging: { before?: string; after?: string } };

for (const backend of storeBackends()) {
  describe(`microsub timeline within a byte budget (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let channel: { id: number; uid: string };
    let ids: number[];

    before(async () => {
      h = await openHarness(backend);
      // six entries of 30% of the budget each, shared by the tests: writing them is most of their time
      channel = await h.store.channels.create('Big');
      ({ ids } = await addBigEntries(h.store, 'https://big.example/feed', channel, 6, minutesAfterT0(0)));
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    const page = async (params: Record<string, string>) => {
      const answer = await h.get({ action: 'timeline', ...params });
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      return answer.body as unknown as Page;
    };

    it('ends a timeline page at its byte budget; after and before cursors page on to the rest', async () => {
      const idsOf = (p: Page) => p.items.map((i) => Number(i['_id']));
      const first = await page({ channel: channel.uid, limit: '100' });
      assert.deepEqual(idsOf(first), ids.slice(3).reverse());
      assert.ok(first.paging.after);
      const rest = await page({ channel: channel.uid, limit: '100', after: first.paging.after as string });
      assert.deepEqual(idsOf(rest), ids.slice(0, 3).reverse());
      assert.equal(rest.paging.after, undefined);
      // newer than the oldest entry: the three just newer, then the two newest
      const oldest = encodeCursor({ sortAt: minutesAfterT0(0), id: ids[0] as number });
      const newer = await page({ channel: channel.uid, limit: '100', before: oldest });
      assert.deepEqual(idsOf(newer), ids.slice(1, 4).reverse());
      const newest = await page({
        channel: channel.uid,
        limit: '100',
        before: newer.paging.before as string,
      });
      assert.deepEqual(idsOf(newest), ids.slice(4).reverse());
    });

    it('ends a search page at its byte budget too, and pages on with after', async () => {
      const search = async (extra: Record<string, string>) => {
        const answer = await h.get({
          action: 'search',
          channel: channel.uid,
          query: 'title',
          limit: '100',
          ...extra,
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
        return answer.body as unknown as Page;
      };
      const first = await search({});
      assert.deepEqual(
        first.items.map((i) => Number(i['_id'])),
        ids.slice(3).reverse(),
      );
      assert.ok(first.paging.after);
      const rest = await search({ after: first.paging.after as string });
      assert.deepEqual(
        rest.items.map((i) => Number(i['_id'])),
        ids.slice(0, 3).reverse(),
      );
      assert.equal(rest.paging.after, undefined);
    });
  });
}
