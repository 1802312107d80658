// Polls of several feeds that come together are written in one transaction, each step for all of them
// (writePolls): each poll still gets its own entries, counts, index rows and heartbeat (issue 22).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  addFollowedFeed,
  minutesAfterT0 as at,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';

for (const backend of storeBackends()) {
  describe(`polls written together (${backend.name})`, { skip: backend.skip }, () => {
    after(() => backend.cleanup());

    it('gives each poll its own entries, counts, search rows and heartbeat', async () => {
      const store = await backend.open();
      const feeds = [];
      for (const n of [1, 2, 3, 4])
        feeds.push(await addFollowedFeed(store, `https://example.org/${n}.xml`, at(0)));
      const [a, b, c, gone] = feeds.map((feed) => feed.id) as [number, number, number, number];
      await store.polling.record(testPoll(b, [testEntry('b-old', { title: 'old words' })], at(1)));
      const [old] = await store.entries.listByFeed(b, 1);
      await store.feeds.remove(gone);
      const entry = (guid: string, title: string) => testEntry(guid, { title, sortAt: at(2) });
      const written = await Promise.all([
        store.polling.record(testPoll(a, [entry('a1', 'apple one'), entry('a2', 'apple two')], at(3))),
        store.polling.record(
          testPoll(b, [entry('b1', 'banana')], at(3), {
            changedEntries: [{ ...testEntry('b-old', { title: 'cherry words' }), id: old?.id ?? 0 }],
          }),
        ),
        store.polling.record(testPoll(c, [], at(3))),
        store.polling.record(testPoll(gone, [entry('g1', 'grape')], at(3))),
      ]);
      const guids = async (feedId: number, ids: readonly number[]) =>
        (await store.entries.listByFeed(feedId, 9))
          .filter((e) => ids.includes(e.id))
          .map((e) => e.guid)
          .sort();
      assert.deepEqual(await guids(a, written[0]?.insertedIds ?? []), ['a1', 'a2']);
      assert.deepEqual(await guids(b, written[1]?.insertedIds ?? []), ['b1']);
      assert.deepEqual(
        written.map((w) => w?.insertedIds.length),
        [2, 1, 0, 0],
      );
      assert.deepEqual(written[1]?.updatedIds, [old?.id]);
      assert.deepEqual(written[2], { insertedIds: [], updatedIds: [] });
      assert.deepEqual(written[3], { insertedIds: [], updatedIds: [] }, 'a feed removed meanwhile');
      for (const [feedId, beats] of [
        [a, 1],
        [b, 2],
        [c, 1],
      ] as const)
        assert.equal((await store.heartbeats.list(feedId, 9)).length, beats, `feed ${feedId}`);
      const unread = (await store.reading.unreadCounts()).reduce((sum, count) => sum + count.unread, 0);
      assert.equal(unread, 4, 'a1, a2, b1 and b-old');
      const found = async (text: string) =>
        (await store.reading.search({ query: text, limit: 9 })).entries.map((e) => e.guid).sort();
      assert.deepEqual(await found('apple'), ['a1', 'a2']);
      assert.deepEqual(await found('cherry'), ['b-old']);
      assert.deepEqual(await found('old'), [], 'the changed entry is indexed anew');
    });
  });
}
