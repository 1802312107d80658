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

const ALICE = 'https://alice.example/';
const BOB = 'https://bob.example/';

/**
 * Two channels: `news` follows the feeds x (site https://x.example/) and y, `blogs` follows x. Alice
 * wrote x-alice and y-alice, Bob x-bob.
 */
async function twoChannels(store: Store) {
  const news = await store.channels.create('news');
  const blogs = await store.channels.create('blogs');
  const x = await store.feeds.add('https://x.example/feed.xml', at(0));
  const y = await store.feeds.add('https://y.example/feed.xml', at(0));
  await store.feeds.update(x.id, { siteUrl: 'https://x.example/' });
  for (const [channel, feed] of [
    [news, x],
    [news, y],
    [blogs, x],
  ] as const)
    await store.channels.subscribe(channel.id, feed.id, at(0));
  await store.polling.record(
    testPoll(x.id, [
      testEntry('x-alice', { authorUrl: ALICE, sortAt: at(3) }),
      testEntry('x-bob', { authorUrl: BOB, sortAt: at(2) }),
    ]),
  );
  await store.polling.record(testPoll(y.id, [testEntry('y-alice', { authorUrl: ALICE, sortAt: at(1) })]));
  const shown = async (channelId: number) =>
    (await store.reading.timeline({ channelId, limit: 9 })).entries.map((entry) => entry.guid);
  return { news, blogs, x, y, shown };
}

function filterSuite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it('stores and returns the author URL', async () => {
    const store = await backend.open();
    const { news } = await twoChannels(store);
    const page = await store.reading.timeline({ channelId: news.id, limit: 9 });
    assert.deepEqual(
      page.entries.map((entry) => entry.authorUrl),
      [ALICE, BOB, ALICE],
    );
  });

  it('hides an author muted in one channel from that channel only', async () => {
    const store = await backend.open();
    const { news, blogs, shown } = await twoChannels(store);
    await store.filters.add({ channelId: news.id, kind: 'mute', url: ALICE }, at(5));
    assert.deepEqual(await shown(news.id), ['x-bob']);
    assert.deepEqual(await shown(blogs.id), ['x-alice', 'x-bob']);
  });

  it('hides an author blocked everywhere from every channel', async () => {
    const store = await backend.open();
    const { news, blogs, shown } = await twoChannels(store);
    await store.filters.add({ kind: 'block', url: ALICE }, at(5));
    assert.deepEqual(await shown(news.id), ['x-bob']);
    assert.deepEqual(await shown(blogs.id), ['x-bob']);
  });

  it("hides a feed by its URL or its site's URL", async () => {
    const store = await backend.open();
    const { news, blogs, shown } = await twoChannels(store);
    await store.filters.add({ kind: 'mute', url: 'https://y.example/feed.xml' }, at(5));
    assert.deepEqual(await shown(news.id), ['x-alice', 'x-bob']);
    await store.filters.add({ channelId: blogs.id, kind: 'block', url: 'https://x.example/' }, at(6));
    assert.deepEqual(await shown(blogs.id), []);
    assert.deepEqual(await shown(news.id), ['x-alice', 'x-bob']);
  });

  it('leaves filtered entries out of unread counts and unread-only pages', async () => {
    const store = await backend.open();
    const { news, blogs } = await twoChannels(store);
    await store.filters.add({ channelId: news.id, kind: 'mute', url: ALICE }, at(5));
    await store.filters.add({ kind: 'block', url: BOB }, at(5));
    const counts = new Map(
      (await store.reading.unreadCounts()).map((count) => [count.channelId, count.unread]),
    );
    assert.deepEqual([counts.get(news.id), counts.get(blogs.id)], [0, 1]);
    const unread = await store.reading.timeline({ channelId: blogs.id, limit: 9, unreadOnly: true });
    assert.deepEqual(
      unread.entries.map((entry) => entry.guid),
      ['x-alice'],
    );
  });

  it("hides again what a poll moves under a rule: the feed's new site, an entry's new author", async () => {
    const store = await backend.open();
    const { news, blogs, x, y, shown } = await twoChannels(store);
    const moved = 'https://moved.example/';
    await store.filters.add({ channelId: news.id, kind: 'block', url: moved }, at(5));
    const patch = (siteUrl: string) => ({ feedPatch: { status: 'ok' as const, siteUrl } });
    await store.polling.record(testPoll(x.id, [], at(6), patch(moved)));
    assert.deepEqual(await shown(news.id), ['y-alice']);
    assert.deepEqual(await shown(blogs.id), ['x-alice', 'x-bob'], 'the rule is news only');
    await store.polling.record(testPoll(x.id, [], at(7), patch('https://x.example/')));
    assert.deepEqual(await shown(news.id), ['x-alice', 'x-bob', 'y-alice']);
    const [stored] = await store.entries.listByFeed(y.id, 1);
    const changed = { ...testEntry('y-alice', { authorUrl: moved, sortAt: at(1) }), id: stored?.id ?? 0 };
    await store.polling.record(testPoll(y.id, [], at(8), { changedEntries: [changed] }));
    assert.deepEqual(await shown(news.id), ['x-alice', 'x-bob']);
    const counts = new Map(
      (await store.reading.unreadCounts()).map((count) => [count.channelId, count.unread]),
    );
    assert.equal(counts.get(news.id), 2);
  });

  it('adds a rule once, lists channel rules with global ones, and removes a rule', async () => {
    const store = await backend.open();
    const { news, blogs, shown } = await twoChannels(store);
    const rule = { channelId: news.id, kind: 'mute' as const, url: ALICE };
    const added = await store.filters.add(rule, at(5));
    assert.equal((await store.filters.add(rule, at(6))).id, added.id);
    assert.deepEqual(added, { id: added.id, channelId: news.id, kind: 'mute', url: ALICE, createdAt: at(5) });
    const global = await store.filters.add({ kind: 'mute', url: BOB }, at(7));
    assert.equal((await store.filters.add({ kind: 'mute', url: BOB }, at(8))).id, global.id);
    assert.equal('channelId' in global, false);
    await store.filters.add({ channelId: blogs.id, kind: 'mute', url: ALICE }, at(9));
    await store.filters.add({ channelId: news.id, kind: 'block', url: BOB }, at(9));
    const urls = async (kind: 'mute' | 'block', channelId?: number) =>
      (await store.filters.list(kind, channelId)).map((filter) => [filter.channelId, filter.url]);
    assert.deepEqual(await urls('mute', news.id), [
      [news.id, ALICE],
      [undefined, BOB],
    ]);
    assert.deepEqual(await urls('mute'), [[undefined, BOB]]);
    assert.deepEqual(await urls('block', news.id), [[news.id, BOB]]);
    await store.filters.remove(rule);
    await store.filters.remove({ kind: 'mute', url: BOB });
    await store.filters.remove({ kind: 'mute', url: 'https://nobody.example/' });
    await store.filters.remove({ kind: 'block', url: BOB, channelId: news.id });
    assert.deepEqual(await shown(news.id), ['x-alice', 'x-bob', 'y-alice']);
    assert.deepEqual(await urls('mute', blogs.id), [[blogs.id, ALICE]]);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => filterSuite(backend));
}
