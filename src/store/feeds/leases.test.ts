// The lease calls a polling run makes besides the claim: counting what it may claim (its progress
// total), renewing its leases while it works, and giving them back in one statement; and the polling
// rounds that runs which overlap share.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { addFollowedFeed, minutesAfterT0 as at, storeBackends } from '../../../test/helpers/temp-store.js';

for (const backend of storeBackends()) {
  describe(`leases (${backend.name})`, { skip: backend.skip }, () => {
    after(() => backend.cleanup());

    it('counts the feeds a claim could take: due, not paused, not leased by another worker', async () => {
      const store = await backend.open();
      const ids: number[] = [];
      for (const n of [1, 2, 3, 4])
        ids.push((await addFollowedFeed(store, `https://example.org/${n}.xml`, at(0))).id);
      const [a, b, c] = ids as [number, number, number, number];
      await store.feeds.update(a, { paused: true });
      await store.feeds.update(b, { nextCheckAt: at(60) });
      await store.polling.claimDue({
        now: at(1),
        limit: 1,
        workerId: 'other',
        leaseMs: 60_000,
        feedIds: [c],
      });
      assert.equal(await store.polling.countClaimable({ now: at(1) }), 1);
      assert.equal(await store.polling.countClaimable({ now: at(1), force: true }), 2);
      assert.equal(await store.polling.countClaimable({ now: at(1), feedIds: [c] }), 0);
      assert.equal(await store.polling.countClaimable({ now: at(1), feedIds: [] }), 0);
    });

    it("renews and releases only the worker's own leases on the feeds named", async () => {
      const store = await backend.open();
      const ids: number[] = [];
      for (const n of [1, 2, 3])
        ids.push((await addFollowedFeed(store, `https://example.org/${n}.xml`, at(0))).id);
      const [a, b, c] = ids as [number, number, number];
      await store.polling.claimDue({
        now: at(0),
        limit: 2,
        workerId: 'w1',
        leaseMs: 60_000,
        feedIds: [a, b],
      });
      await store.polling.claimDue({ now: at(0), limit: 1, workerId: 'w2', leaseMs: 60_000, feedIds: [c] });
      // renewed to minute 10: still w1's at minute 5, when its first lease had run out
      assert.equal(await store.polling.renewLeases([a, b, c], 'w1', at(10)), 2);
      assert.equal(await store.polling.countClaimable({ now: at(5) }), 1, "only w2's lapsed lease on c");
      // a and c named, but c is w2's: only a is given back
      assert.equal(await store.polling.releaseMany([a, c], 'w1'), 1);
      assert.equal(await store.polling.countClaimable({ now: at(0) }), 1, "a is free; b is w1's, c w2's");
      assert.equal(await store.polling.releaseMany([], 'w1'), 0);
      assert.equal(await store.polling.renewLeases([], 'w1', at(20)), 0);
    });

    it('runs that overlap share a round; a closed or lapsed round is followed by the next', async () => {
      const store = await backend.open();
      const first = await store.polling.joinRound('due', at(0), at(1));
      assert.deepEqual(first, { key: 'due:1', startedAt: at(0) });
      // a second run joins it, and the round's start stays the first run's
      assert.deepEqual(await store.polling.joinRound('due', at(0.5), at(1.5)), first);
      assert.deepEqual(await store.polling.joinRound('force', at(0.5), at(1.5)), {
        key: 'force:1',
        startedAt: at(0.5),
      });
      // renewed by its runs, it outlives the first lease; once closed, nobody joins it
      await store.polling.renewRound(first.key, at(5));
      assert.deepEqual(await store.polling.joinRound('due', at(3), at(4)), first);
      await store.polling.closeRound(first.key);
      await store.polling.renewRound(first.key, at(9));
      const second = await store.polling.joinRound('due', at(6), at(7));
      assert.deepEqual(second, { key: 'due:2', startedAt: at(6) });
      // nobody renewed it: past its expiry the next run opens the next round
      assert.deepEqual(await store.polling.joinRound('due', at(7), at(8)), {
        key: 'due:3',
        startedAt: at(7),
      });
    });

    it('claims a feed once per round, whatever becomes of the lease, unless given back unpolled', async () => {
      const store = await backend.open();
      const ids: number[] = [];
      for (const n of [1, 2, 3])
        ids.push((await addFollowedFeed(store, `https://example.org/${n}.xml`, at(0))).id);
      const [a, b] = ids as [number, number, number];
      const round = (await store.polling.joinRound('force', at(0), at(1))).key;
      const claim = (workerId: string, minute: number, limit = 3) =>
        store.polling.claimDue({ now: at(minute), limit, workerId, leaseMs: 60_000, force: true, round });
      assert.equal((await claim('w1', 0, 2)).length, 2);
      // w1's leases lapse (a stalled process) and are given back: w2 of the same round takes only the third
      assert.equal(await store.polling.releaseMany([a], 'w1'), 1);
      const third = await claim('w2', 2);
      assert.deepEqual(
        third.map((f) => f.id),
        [ids[2]],
      );
      assert.equal(await store.polling.countClaimable({ now: at(3), force: true, round }), 0);
      // given back unpolled (a stop), b may be claimed again in the round; the next round claims all
      assert.equal(await store.polling.releaseMany([b], 'w1', { unclaimRound: round }), 1);
      assert.deepEqual(
        (await claim('w2', 3)).map((f) => f.id),
        [b],
      );
      const next = (await store.polling.joinRound('force', at(9), at(10))).key;
      assert.notEqual(next, round);
      const all = await store.polling.claimDue({
        now: at(9),
        limit: 5,
        workerId: 'w3',
        leaseMs: 60_000,
        force: true,
        round: next,
      });
      assert.equal(all.length, 3);
    });
  });
}
