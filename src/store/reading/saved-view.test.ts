import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';

function suite(backend: StoreBackend) {
  after(() => backend.cleanup());

  async function storeWithEntries(count: number) {
    const store = await backend.open();
    const news = await store.channels.create('news');
    const feed = await store.feeds.add('https://example.org/a.xml', at(0));
    await store.channels.subscribe(news.id, feed.id, at(0));
    const entries = Array.from({ length: count }, (_, i) => testEntry(`e-${i}`, { sortAt: at(i) }));
    await store.polling.record(testPoll(feed.id, entries));
    const stored = await store.entries.listByFeed(feed.id, 1000);
    const id = (n: number) => stored.find((entry) => entry.guid === `e-${n}`)?.id ?? -1;
    return { store, news, feed, id };
  }

  it('lists saved entries, the most recently saved first, in pages with cursors', async () => {
    const { store, id } = await storeWithEntries(5);
    await store.sync.setSaved([id(4)], true, at(10));
    await store.sync.setSaved([id(0)], true, at(11));
    await store.sync.setSaved([id(2)], true, at(12));
    const first = await store.reading.savedEntries({ limit: 2 });
    assert.deepEqual(
      first.entries.map((e) => e.guid),
      ['e-2', 'e-0'],
    );
    assert.ok(first.entries.every((e) => e.isSaved === true));
    assert.ok(first.after);
    const second = await store.reading.savedEntries({ limit: 2, after: first.after });
    assert.deepEqual(
      second.entries.map((e) => e.guid),
      ['e-4'],
    );
    assert.equal(second.after, undefined);
    const back = await store.reading.savedEntries({ limit: 2, before: second.before });
    assert.deepEqual(
      back.entries.map((e) => e.guid),
      ['e-2', 'e-0'],
    );
    await assert.rejects(store.reading.savedEntries({ limit: 2, after: 'nope' }), { kind: 'invalid' });
  });

  it('finds a saved entry neighbours through its cursor, and none for an entry not saved', async () => {
    const { store, id } = await storeWithEntries(3);
    await store.sync.setSaved([id(0)], true, at(10));
    await store.sync.setSaved([id(1)], true, at(11));
    await store.sync.setSaved([id(2)], true, at(12));
    const cursor = await store.reading.savedCursor(id(1));
    assert.ok(cursor);
    const older = await store.reading.savedEntries({ limit: 1, after: cursor });
    const newer = await store.reading.savedEntries({ limit: 1, before: cursor });
    assert.deepEqual(
      older.entries.map((e) => e.guid),
      ['e-0'],
    );
    assert.deepEqual(
      newer.entries.map((e) => e.guid),
      ['e-2'],
    );
    await store.sync.setSaved([id(1)], false, at(13));
    assert.equal(await store.reading.savedCursor(id(1)), undefined);
    assert.deepEqual(
      (await store.reading.savedEntries({ limit: 10 })).entries.map((e) => e.guid),
      ['e-2', 'e-0'],
    );
  });

  it('keeps saved entries of a feed no channel follows any more', async () => {
    const { store, feed, id } = await storeWithEntries(2);
    await store.sync.setSaved([id(1)], true, at(10));
    await store.feeds.remove(feed.id);
    const page = await store.reading.savedEntries({ limit: 10 });
    assert.deepEqual(
      page.entries.map((e) => e.guid),
      ['e-1'],
    );
    // the apps list the feed for it, found without reading the entry
    assert.deepEqual(await store.sync.savedFeedIds(), [feed.id]);
  });

  it("names each saved entry's feed once, and only the user's", async () => {
    const { store, feed, id } = await storeWithEntries(3);
    assert.deepEqual(await store.sync.savedFeedIds(), []);
    await store.sync.setSaved([id(0), id(2)], true, at(10));
    assert.deepEqual(await store.sync.savedFeedIds(), [feed.id]);
    await store.users.add({ name: 'ann', isAdmin: true }, at(11));
    const bo = await store.users.add({ name: 'bo', isAdmin: false }, at(11));
    assert.deepEqual(await store.forUser(bo.id).sync.savedFeedIds(), []);
  });
}

describe('store: the Saved view', () => {
  for (const backend of storeBackends())
    describe(backend.name, { skip: backend.skip ?? false }, () => suite(backend));
});
