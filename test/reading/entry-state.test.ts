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
import type { Store } from '../../src/store/store.js';
import type { SyncQuery } from '../../src/store/sync-types.js';
import { minutesAfterT0, storeBackends, testEntry, testPoll } from '../helpers/temp-store.js';

const NOW = new Date('2024-03-02T00:00:00.000Z');

for (const backend of storeBackends()) {
  describe(`reading: entry state for the apps (${backend.name})`, { skip: backend.skip }, () => {
    let store: Store;
    let a: number;
    let b: number;
    let feed: number;
    let ids: number[];

    const apps = async (id: number) => (await store.syncEntries([id]))[0];
    const inChannel = async (channelId: number, id: number) =>
      (await store.entriesById(channelId, [id]))[0]?.isRead;

    before(async () => {
      store = await backend.open();
      a = (await store.createChannel('A')).id;
      b = (await store.createChannel('B')).id;
      feed = (await store.addFeed('https://example.org/feed', minutesAfterT0(0))).id;
      await store.subscribe(a, feed, minutesAfterT0(0));
      await store.subscribe(b, feed, minutesAfterT0(0));
      const polled = await store.recordPoll(
        testPoll(feed, [testEntry('one'), testEntry('two'), testEntry('three')]),
      );
      ids = polled.insertedIds;
    });
    after(() => backend.cleanup());

    it('sees an entry as unread while one channel that follows its feed has it unread', async () => {
      const [one] = ids as [number];
      await store.markRead(a, [one], true, minutesAfterT0(2));
      assert.equal((await apps(one))?.isRead, false);
      await store.markRead(b, [one], true, minutesAfterT0(2));
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
      assert.deepEqual(await store.syncIds({ readState: 'unread' }), ids.slice(1));
    });

    it('marks a stream read up to a crawl time only', async () => {
      const c = (await store.createChannel('C')).id;
      const other = (await store.addFeed('https://example.org/other', minutesAfterT0(0))).id;
      await store.subscribe(c, other, minutesAfterT0(0));
      const early = await store.recordPoll(testPoll(other, [testEntry('early')], minutesAfterT0(10)));
      const late = await store.recordPoll(testPoll(other, [testEntry('late')], minutesAfterT0(20)));
      await markStreamRead(store, { channelId: c }, new Date(minutesAfterT0(15)), NOW);
      assert.equal((await apps(early.insertedIds[0] as number))?.isRead, true);
      assert.equal((await apps(late.insertedIds[0] as number))?.isRead, false);
      const counts = await store.syncUnreadCounts();
      assert.deepEqual(
        counts.find((count) => count.feedId === other),
        { feedId: other, unread: 1, newestSeenAt: minutesAfterT0(20) },
      );
    });

    it('saves per entry, and keeps saved entries and their feed when the feed is removed', async () => {
      const [one, two, three] = ids as [number, number, number];
      await changeEntries(store, [one, 999_999], 'save', NOW);
      await changeEntries(store, [one], 'save', new Date(NOW.getTime() + 1000));
      assert.deepEqual(await store.syncIds({ savedOnly: true }), [one]);
      assert.equal((await apps(one))?.isSaved, true);
      assert.equal((await apps(two))?.isSaved, false);
      await store.removeFeed(feed);
      assert.equal((await store.getEntry(one))?.id, one);
      assert.equal(await store.getEntry(three), undefined);
      const kept = await store.getFeed(feed);
      assert.equal(kept?.paused, false);
      assert.ok(kept?.unfollowedAt, 'kept as an unfollowed feed, not polled');
      assert.deepEqual(await store.listSubscriptions(a), []);
      assert.deepEqual(await store.syncIds({ savedOnly: true }), [one]);
      // no channel follows it any more: read for the apps, still in the starred stream
      assert.equal((await apps(one))?.isRead, true);
      assert.ok((await store.syncIds({})).includes(one));
      if (backend.name === 'sqlite') {
        // a delete that bypasses removeFeed (a retention job, say) cannot take a saved entry with it
        const raw = new Sqlite(backend.urlOf(store).slice('sqlite:'.length));
        raw.pragma('foreign_keys = ON');
        assert.throws(() => raw.prepare('DELETE FROM feeds WHERE id = ?').run(feed), /FOREIGN KEY/);
        raw.close();
      }
      await changeEntries(store, [one], 'unsave', NOW);
      assert.deepEqual(await store.syncIds({ savedOnly: true }), []);
      await store.removeFeed(feed);
      assert.equal(await store.getFeed(feed), undefined);
    });

    it('pages sparse unread entries across id windows, newest or oldest first, from a continuation', async () => {
      const c = (await store.createChannel('Sparse')).id;
      const sparse = (await store.addFeed('https://example.org/sparse', minutesAfterT0(0))).id;
      await store.subscribe(c, sparse, minutesAfterT0(0));
      const many = Array.from({ length: 3000 }, (_, i) => testEntry(`s${i}`));
      const inserted = (await store.recordPoll(testPoll(sparse, many, minutesAfterT0(30)))).insertedIds.sort(
        (x, y) => x - y,
      );
      const unread = inserted.filter((_, i) => i % 1000 === 7);
      await store.setReadEverywhere({ feedId: sparse }, true, minutesAfterT0(31));
      await store.setReadEverywhere({ ids: unread }, false, minutesAfterT0(31));
      const keys = (q: Partial<SyncQuery>) =>
        store.syncKeys({ feedId: sparse, readState: 'unread', oldestFirst: false, limit: 10, ...q });
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
      assert.notEqual(await store.getSetting('api.fever_key'), key);
      const token = await issueApiToken(store, NOW);
      assert.equal(await checkApiToken(store, token, NOW), true);
      assert.equal(await checkApiToken(store, 'f'.repeat(64), NOW), false);
      assert.equal(await checkApiToken(store, `${token}\n`, NOW), false);
      await setApiPassword(store, 'ann', 'another password', { N: 1024 });
      assert.equal(await checkApiToken(store, token, NOW), false);
    });
  });
}
