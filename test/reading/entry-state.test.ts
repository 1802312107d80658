import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import {
  checkApiLogin,
  checkApiToken,
  checkFeverKey,
  feverKey,
  issueApiToken,
  setApiPassword,
} from '../../src/auth/api-credentials.js';
import { changeEntries, markStreamRead } from '../../src/reading/entry-state.js';
import type { Store, SyncQuery } from '../../src/store/index.js';
import { minutesAfterT0, storeBackends, testEntry, testPoll } from '../helpers/temp-store.js';

const NOW = new Date('2024-03-02T00:00:00.000Z');

for (const backend of storeBackends()) {
  describe(`reading: entry state for the apps (${backend.name})`, { skip: backend.skip }, () => {
    let store: Store;
    let a: number;
    let b: number;
    let feed: number;
    let ids: number[];

    const apps = async (id: number) => (await store.sync.entries([id]))[0];
    const inChannel = async (channelId: number, id: number) =>
      (await store.reading.entriesById(channelId, [id]))[0]?.isRead;

    before(async () => {
      store = await backend.open();
      a = (await store.channels.create('A')).id;
      b = (await store.channels.create('B')).id;
      feed = (await store.feeds.add('https://example.org/feed', minutesAfterT0(0))).id;
      await store.channels.subscribe(a, feed, minutesAfterT0(0));
      await store.channels.subscribe(b, feed, minutesAfterT0(0));
      const polled = await store.polling.record(
        testPoll(feed, [testEntry('one'), testEntry('two'), testEntry('three')]),
      );
      ids = polled.insertedIds;
    });
    after(() => backend.cleanup());

    it('sees an entry as unread while one channel that follows its feed has it unread', async () => {
      const [one] = ids as [number];
      await store.reading.markRead(a, [one], true, minutesAfterT0(2));
      assert.equal((await apps(one))?.isRead, false);
      await store.reading.markRead(b, [one], true, minutesAfterT0(2));
      assert.equal((await apps(one))?.isRead, true);
    });

    it('marks read and unread in every channel that follows the feed', async () => {
      const [, two] = ids as [number, number];
      await changeEntries(store, [two], 'read', NOW);
      assert.equal(await inChannel(a, two), true);
      assert.equal(await inChannel(b, two), true);
      assert.equal((await apps(two))?.isRead, true);
      await changeEntries(store, [two], 'unread', NOW);
      assert.equal(await inChannel(a, two), false);
      assert.equal(await inChannel(b, two), false);
      assert.deepEqual(await store.sync.ids({ readState: 'unread' }), ids.slice(1));
    });

    it('marks a stream read up to a crawl time only', async () => {
      const c = (await store.channels.create('C')).id;
      const other = (await store.feeds.add('https://example.org/other', minutesAfterT0(0))).id;
      await store.channels.subscribe(c, other, minutesAfterT0(0));
      const early = await store.polling.record(testPoll(other, [testEntry('early')], minutesAfterT0(10)));
      const late = await store.polling.record(testPoll(other, [testEntry('late')], minutesAfterT0(20)));
      await markStreamRead(store, { channelId: c }, new Date(minutesAfterT0(15)), NOW);
      assert.equal((await apps(early.insertedIds[0] as number))?.isRead, true);
      assert.equal((await apps(late.insertedIds[0] as number))?.isRead, false);
      const counts = await store.sync.unreadCounts();
      assert.deepEqual(
        counts.find((count) => count.feedId === other),
        { feedId: other, unread: 1, newestSeenAt: minutesAfterT0(20) },
      );
    });

    it('saves per entry, and keeps saved entries and their feed when the feed is removed', async () => {
      const [one, two, three] = ids as [number, number, number];
      await changeEntries(store, [one, 999_999], 'save', NOW);
      await changeEntries(store, [one], 'save', new Date(NOW.getTime() + 1000));
      assert.deepEqual(await store.sync.ids({ savedOnly: true }), [one]);
      assert.equal((await apps(one))?.isSaved, true);
      assert.equal((await apps(two))?.isSaved, false);
      await store.feeds.remove(feed);
      assert.equal((await store.entries.get(one))?.id, one);
      assert.equal(await store.entries.get(three), undefined);
      const kept = await store.feeds.get(feed);
      assert.equal(kept?.paused, false);
      assert.ok(kept?.unfollowedAt, 'kept as an unfollowed feed, not polled');
      assert.deepEqual(await store.channels.listSubscriptions(a), []);
      assert.deepEqual(await store.sync.ids({ savedOnly: true }), [one]);
      // no channel follows it any more: read for the apps, still in the starred stream
      assert.equal((await apps(one))?.isRead, true);
      assert.ok((await store.sync.ids({})).includes(one));
      if (backend.name === 'sqlite') {
        // a delete that bypasses feeds.remove (a retention job, say) cannot take a saved entry with it
        const raw = new Sqlite(backend.urlOf(store).slice('sqlite:'.length));
        raw.pragma('foreign_keys = ON');
        assert.throws(() => raw.prepare('DELETE FROM feeds WHERE id = ?').run(feed), /FOREIGN KEY/);
        raw.close();
      }
      await changeEntries(store, [one], 'unsave', NOW);
      assert.deepEqual(await store.sync.ids({ savedOnly: true }), []);
      await store.feeds.remove(feed);
      assert.equal(await store.feeds.get(feed), undefined);
    });

    it('pages sparse unread entries across id windows, newest or oldest first, from a continuation', async () => {
      const c = (await store.channels.create('Sparse')).id;
      const sparse = (await store.feeds.add('https://example.org/sparse', minutesAfterT0(0))).id;
      await store.channels.subscribe(c, sparse, minutesAfterT0(0));
      const many = Array.from({ length: 3000 }, (_, i) => testEntry(`s${i}`));
      const inserted = (
        await store.polling.record(testPoll(sparse, many, minutesAfterT0(30)))
      ).insertedIds.sort((x, y) => x - y);
      const unread = inserted.filter((_, i) => i % 1000 === 7);
      await store.sync.setReadEverywhere({ feedId: sparse }, true, minutesAfterT0(31));
      await store.sync.setReadEverywhere({ ids: unread }, false, minutesAfterT0(31));
      const keys = (q: Partial<SyncQuery>) =>
        store.sync.keys({ feedId: sparse, readState: 'unread', oldestFirst: false, limit: 10, ...q });
      const idsOf = async (q: Partial<SyncQuery>) => (await keys(q)).map((k) => k.id);
      assert.deepEqual(await idsOf({}), [...unread].reverse());
      assert.deepEqual(await idsOf({ oldestFirst: true }), unread);
      assert.deepEqual(await idsOf({ limit: 1, idBelow: unread[2] }), [unread[1]]);
      assert.deepEqual(await idsOf({ oldestFirst: true, limit: 2, idAbove: unread[0] }), unread.slice(1, 3));
      assert.deepEqual(await idsOf({ idBelow: unread[0] }), []);
    });

    it('checks the API account: ClientLogin password, Fever key in either case, Auth tokens', async () => {
      await setApiPassword(store, 'ann', 'secret password', { N: 1024 });
      assert.equal(await checkApiLogin(store, 'ann', 'secret password'), true);
      assert.equal(await checkApiLogin(store, 'Ann', 'secret password'), true);
      assert.equal(await checkApiLogin(store, 'bob', 'secret password'), false);
      assert.equal(await checkApiLogin(store, 'ann', 'wrong password'), false);
      const key = feverKey('ann', 'secret password');
      assert.equal(await checkFeverKey(store, key), true);
      assert.equal(await checkFeverKey(store, key.toUpperCase()), true);
      assert.equal(await checkFeverKey(store, feverKey('ann', 'other')), false);
      assert.notEqual(await store.accounts.getUserSetting('api.fever_key'), key);
      const token = await issueApiToken(store, NOW);
      assert.equal(await checkApiToken(store, token, NOW), true);
      assert.equal(await checkApiToken(store, 'f'.repeat(64), NOW), false);
      assert.equal(await checkApiToken(store, `${token}\n`, NOW), false);
      await setApiPassword(store, 'ann', 'another password', { N: 1024 });
      assert.equal(await checkApiToken(store, token, NOW), false);
    });
  });
}
