// The lease calls a polling run makes besides the claim: counting what it may claim (its progress
// total), renewing its leases while it works, and giving them back in one statement.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { addFollowedFeed, minutesAfterT0 as at, storeBackends } from '../../test/helpers/temp-store.js';

for (const backend of storeBackends()) {
  describe(`leases (${backend.name})`, { skip: backend.skip }, () => {
    after(() => backend.cleanup());

    it('counts the feeds a claim could take: due, not paused, not leased by another worker', async () => {
      const store = await backend.open();
      const ids: number[] = [];
      for (const n of [1, 2, 3, 4])
        ids.push((await addFollowedFeed(store, `https://example.org/${n}.xml`, at(0))).id);
      const [a, b, c] = ids as [number, number, number, number];
      await store.updateFeed(a, { paused: true });
      await store.updateFeed(b, { nextCheckAt: at(60) });
      await store.claimDueFeeds({ now: at(1), limit: 1, workerId: 'other', leaseMs: 60_000, feedIds: [c] });
      assert.equal(await store.countClaimableFeeds({ now: at(1) }), 1);
      assert.equal(await store.countClaimableFeeds({ now: at(1), force: true }), 2);
      assert.equal(await store.countClaimableFeeds({ now: at(1), feedIds: [c] }), 0);
      assert.equal(await store.countClaimableFeeds({ now: at(1), feedIds: [] }), 0);
    });

    it("renews and releases only the worker's own leases on the feeds named", async () => {
      const store = await backend.open();
      const ids: number[] = [];
      for (const n of [1, 2, 3])
        ids.push((await addFollowedFeed(store, `https://example.org/${n}.xml`, at(0))).id);
      const [a, b, c] = ids as [number, number, number];
      await store.claimDueFeeds({ now: at(0), limit: 2, workerId: 'w1', leaseMs: 60_000, feedIds: [a, b] });
      await store.claimDueFeeds({ now: at(0), limit: 1, workerId: 'w2', leaseMs: 60_000, feedIds: [c] });
      // renewed to minute 10: still w1's at minute 5, when its first lease had run out
      assert.equal(await store.renewLeases([a, b, c], 'w1', at(10)), 2);
      assert.equal(await store.countClaimableFeeds({ now: at(5) }), 1, "only w2's lapsed lease on c");
      // a and c named, but c is w2's: only a is given back
      assert.equal(await store.releaseFeeds([a, c], 'w1'), 1);
      assert.equal(await store.countClaimableFeeds({ now: at(0) }), 1, "a is free; b is w1's, c w2's");
      assert.equal(await store.releaseFeeds([], 'w1'), 0);
      assert.equal(await store.renewLeases([], 'w1', at(20)), 0);
    });
  });
}
