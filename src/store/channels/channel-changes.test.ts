import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';
import type { ChangedChannels } from '../types.js';

/** What `write` told the store's listeners, in order. */
async function heard(store: Store, write: () => Promise<unknown>): Promise<ChangedChannels[]> {
  const seen: ChangedChannels[] = [];
  const stop = store.onChannelsChanged((channels) => seen.push(channels));
  try {
    await write();
  } finally {
    stop();
  }
  return seen;
}

function suite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it('tells its listeners which channels each write changed, after the write', async () => {
    const store = await backend.open();
    const news = await store.channels.create('news');
    const later = await store.channels.create('later');
    const feed = await store.feeds.add('https://example.org/changes.xml', at(0));
    assert.deepEqual(await heard(store, () => store.channels.subscribe(news.id, feed.id, at(0))), [
      [news.id],
    ]);
    await store.polling.record(
      testPoll(feed.id, [testEntry('c-0', { sortAt: at(0) }), testEntry('c-1', { sortAt: at(1) })]),
    );
    const [newer, older] = (await store.reading.timeline({ channelId: news.id, limit: 10 })).entries;
    // a write that may touch any channel of the user is heard as all of theirs, and only theirs
    const other = await store.users.add({ name: 'other', isAdmin: false }, at(0));
    await store.forUser(other.id).channels.create('not theirs');
    const everyOne = (await store.channels.list()).map((c) => c.id).sort((a, b) => a - b);
    const ids = [newer!.id, older!.id];

    // the listener sees the write done: the count it reads is the new one
    let countSeen: number | undefined;
    const stop = store.onChannelsChanged(() => {
      void store.reading.channelSummaries().then((all) => {
        countSeen = all.find((c) => c.id === news.id)?.unread;
      });
    });
    await store.reading.markRead(news.id, [ids[0]!], true, at(2));
    stop();
    for (let i = 0; i < 100 && countSeen === undefined; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(countSeen, 1);

    assert.deepEqual(await heard(store, () => store.reading.markRead(news.id, ids, false, at(3))), [
      [news.id],
    ]);
    assert.deepEqual(await heard(store, () => store.reading.markReadUpTo(news.id, ids[0]!, at(4))), [
      [news.id],
    ]);
    assert.deepEqual(await heard(store, () => store.reading.markReadReturningIds(news.id, {}, at(5))), [
      [news.id],
    ]);
    assert.deepEqual(await heard(store, () => store.sync.setReadEverywhere({ ids }, false, at(6))), [
      everyOne,
    ]);
    assert.deepEqual(await heard(store, () => store.reading.removeEntries(news.id, [ids[1]!], at(7))), [
      [news.id],
    ]);
    const rule = { kind: 'mute' as const, url: 'https://author.example/' };
    assert.deepEqual(await heard(store, () => store.filters.add({ ...rule, channelId: later.id }, at(8))), [
      [later.id],
    ]);
    assert.deepEqual(await heard(store, () => store.filters.add(rule, at(8))), [everyOne]);
    assert.deepEqual(await heard(store, () => store.filters.remove(rule)), [everyOne]);
    assert.deepEqual(
      await heard(store, () => store.channels.moveSubscription(feed.id, news.id, later.id, at(9))),
      [[news.id, later.id]],
    );
    assert.deepEqual(await heard(store, () => store.reading.removeFeedEntries(later.id, feed.id, at(10))), [
      [later.id],
    ]);
    assert.deepEqual(await heard(store, () => store.channels.unsubscribe(later.id, feed.id)), [[later.id]]);
    assert.deepEqual(await heard(store, () => store.feeds.remove(feed.id)), [everyOne]);
  });

  it('tells nothing of reads, saves and writes that failed, and a failing listener fails no write', async () => {
    const store = await backend.open();
    const news = await store.channels.create('quiet');
    const feed = await store.feeds.add('https://example.org/quiet.xml', at(0));
    await store.channels.subscribe(news.id, feed.id, at(0));
    await store.polling.record(testPoll(feed.id, [testEntry('q-0', { sortAt: at(0) })]));
    const [entry] = (await store.reading.timeline({ channelId: news.id, limit: 10 })).entries;
    assert.deepEqual(
      await heard(store, async () => {
        await store.reading.timeline({ channelId: news.id, limit: 10 });
        await store.reading.channelSummaries();
        await store.sync.setSaved([entry!.id], true, at(1));
      }),
      [],
    );
    assert.deepEqual(
      await heard(store, () =>
        store.channels.subscribe(news.id, 999_999, at(1)).then(
          () => assert.fail('a subscription to no feed was stored'),
          () => undefined,
        ),
      ),
      [],
    );
    const stop = store.onChannelsChanged(() => {
      throw new Error('a listener that fails');
    });
    await store.reading.markRead(news.id, [entry!.id], true, at(2));
    stop();
    const summary = (await store.reading.channelSummaries()).find((c) => c.id === news.id);
    assert.equal(summary?.unread, 0);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(`store channel changes (${backend.name})`, () => suite(backend));
}
