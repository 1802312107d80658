// The reading module's front door (src/reading/index.ts), called as the front ends call it: open an
// entry, mark read and unread, mark all read and undo, remove, save, and the counts after each, on SQLite
// and PostgreSQL. The front ends' own tests (test/web, test/microsub, test/greader, test/fever) check
// the same use cases through their protocols.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '../../src/model/stored.js';
import {
  countsAfter,
  entriesOfChannel,
  feedsToRefresh,
  markAllRead,
  markInChannel,
  openAnywhere,
  openInChannel,
  openSaved,
  readingCounts,
  removeFromChannel,
  saveEntry,
  UndoLog,
  undoableCount,
  undoMarkAll,
} from '../../src/reading/index.js';
import type { Store } from '../../src/store/index.js';
import { minutesAfterT0, storeBackends, testEntry, testPoll } from '../helpers/temp-store.js';

const NOW = new Date('2024-03-02T00:00:00.000Z');

for (const backend of storeBackends()) {
  describe(`reading: the front door (${backend.name})`, { skip: backend.skip }, () => {
    let store: Store;
    let a: Channel;
    let b: Channel;
    let shared: number;
    let own: number;
    let sharedIds: number[];
    let ownIds: number[];
    const deps = () => ({ store, now: () => NOW });
    const readIn = async (channel: Channel, id: number) =>
      (await store.reading.entriesById(channel.id, [id]))[0]?.isRead;

    before(async () => {
      store = await backend.open();
      a = await store.channels.create('A');
      b = await store.channels.create('B');
      shared = (await store.feeds.add('https://example.org/shared', minutesAfterT0(0))).id;
      own = (await store.feeds.add('https://example.org/own', minutesAfterT0(0))).id;
      await store.channels.subscribe(a.id, shared, minutesAfterT0(0));
      await store.channels.subscribe(b.id, shared, minutesAfterT0(0));
      await store.channels.subscribe(b.id, own, minutesAfterT0(0));
      const entries = (prefix: string) =>
        [0, 1, 2].map((i) => testEntry(`${prefix}${i}`, { sortAt: minutesAfterT0(i) }));
      sharedIds = (await store.polling.record(testPoll(shared, entries('s')))).insertedIds;
      ownIds = (await store.polling.record(testPoll(own, entries('o')))).insertedIds;
    });
    after(() => backend.cleanup());

    it('counts All unread once per entry: 3 shared + 3 own, though the channels count 3 + 6', async () => {
      const counts = await readingCounts(store);
      const unread = (channel: Channel) => counts.channels.find((ch) => ch.id === channel.id)?.unread;
      assert.deepEqual([unread(a), unread(b)], [3, 6]);
      assert.equal(counts.allUnread, 6);
    });

    it('opens an entry in a channel, marking it read there only', async () => {
      const [s0] = sharedIds as [number];
      const entry = await openInChannel(deps(), a, s0);
      assert.equal(entry?.id, s0);
      assert.equal(entry?.isRead, true);
      assert.equal(await readIn(a, s0), true);
      assert.equal(await readIn(b, s0), false);
      assert.equal(await openInChannel(deps(), a, 999_999), undefined);
      const counts = await countsAfter(store, [s0]);
      assert.equal(counts.allUnread, 6, 'still unread in B');
      assert.deepEqual(
        counts.feeds.map((f) => [f.channelId, f.unread]).sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0)),
        [
          [a.id, 2],
          [b.id, 3],
        ],
      );
    });

    it('opens an entry from All unread in its first channel, marking it read in every channel', async () => {
      const [, s1] = sharedIds as [number, number];
      const opened = await openAnywhere(deps(), s1);
      assert.equal(opened?.channel.id, a.id);
      assert.equal(opened?.entry.isRead, true);
      assert.equal(await readIn(a, s1), true);
      assert.equal(await readIn(b, s1), true);
      assert.equal(await openAnywhere(deps(), 999_999), undefined);
    });

    it('marks read and unread in one channel, and keeps only the channel’s entries of a list of ids', async () => {
      const [o0] = ownIds as [number];
      assert.deepEqual(await entriesOfChannel(deps(), a, [o0, 999_999, sharedIds[2] as number]), [
        sharedIds[2],
      ]);
      await markInChannel(deps(), b, [o0], true);
      assert.equal(await readIn(b, o0), true);
      await markInChannel(deps(), b, [o0], false);
      assert.equal(await readIn(b, o0), false);
    });

    it('marks all read with an undo that marks exactly those entries unread again', async () => {
      const undo = new UndoLog();
      const before = (await readingCounts(store)).allUnread;
      const everything = await markAllRead(deps(), undo, 'everything');
      assert.equal((await readingCounts(store)).allUnread, 0);
      assert.equal(undoableCount(undo, everything.token, NOW), everything.count);
      assert.equal(await undoMarkAll(deps(), undo, everything.token), everything.count);
      assert.equal((await readingCounts(store)).allUnread, before);
      assert.equal(await undoMarkAll(deps(), undo, everything.token), undefined, 'an undo happens once');
      const one = await markAllRead(deps(), undo, { channel: b, feedId: own });
      assert.equal(one.count, 3);
      assert.equal(await undoMarkAll(deps(), undo, one.token), 3);
      const upTo = await markAllRead(deps(), undo, { channel: b, upToEntryId: ownIds[1] as number });
      assert.equal(await readIn(b, ownIds[1] as number), true);
      assert.equal(await readIn(b, ownIds[2] as number), false);
      assert.equal(await undoMarkAll(deps(), undo, upTo.token), upTo.count);
    });

    it('removes an entry from one channel, saves and opens a saved entry', async () => {
      const [, , s2] = sharedIds as [number, number, number];
      await removeFromChannel(deps(), b, [s2]);
      const timeline = await store.reading.timeline({ channelId: b.id, limit: 50 });
      assert.equal(
        timeline.entries.some((entry) => entry.id === s2),
        false,
      );
      assert.equal(await saveEntry(store, s2, true, NOW), true);
      assert.equal(await saveEntry(store, 999_999, true, NOW), false);
      assert.equal((await readingCounts(store)).saved, 1);
      const saved = await openSaved(deps(), s2);
      assert.equal(saved?.isRead, true);
      assert.equal(await readIn(a, s2), true);
    });

    it('refreshes the feed shown, or every feed of the channel', async () => {
      assert.deepEqual(await feedsToRefresh(deps(), b, own), [own]);
      assert.deepEqual((await feedsToRefresh(deps(), b)).sort(), [shared, own].sort());
    });
  });
}
