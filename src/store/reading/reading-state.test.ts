import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSql } from '../../../test/helpers/raw-sql.js';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';

// The kept rows and counts (migration 0006) must equal a recount from the records after every kind of
// write: the doctor's check finds nothing, and each channel's count equals its unread entries paged
// through the timeline.

/**
 * Each channel's unread entries, counted by paging its unread-only timeline, and each (channel, feed)'s
 * (keyed `channelId:feedId`, pairs without unread entries left out).
 */
async function pagedUnread(
  store: Store,
): Promise<{ byChannel: Map<number, number>; byFeed: Map<string, number> }> {
  const byChannel = new Map<number, number>();
  const byFeed = new Map<string, number>();
  for (const channel of await store.channels.list()) {
    let total = 0;
    let after: string | undefined;
    do {
      const page = await store.reading.timeline({
        channelId: channel.id,
        limit: 500,
        unreadOnly: true,
        after,
      });
      total += page.entries.length;
      for (const entry of page.entries) {
        const key = `${channel.id}:${entry.feedId}`;
        byFeed.set(key, (byFeed.get(key) ?? 0) + 1);
      }
      after = page.after;
    } while (after !== undefined);
    byChannel.set(channel.id, total);
  }
  return { byChannel, byFeed };
}

/** The kept state equals the recount: the doctor finds nothing, counts equal the paged unread entries. */
async function assertKept(store: Store, step: string): Promise<void> {
  const report = await store.reading.checkState({ repair: false });
  assert.deepEqual(
    report,
    { missingRows: 0, strayRows: 0, wrongRows: 0, countDrift: [], repaired: false },
    `after ${step}`,
  );
  const paged = await pagedUnread(store);
  const kept = new Map((await store.reading.unreadCounts()).map((count) => [count.channelId, count.unread]));
  assert.deepEqual(kept, paged.byChannel, `counts after ${step}`);
  // what the sidebar and Microsub's channels read in one statement each says the same
  const [channels, subscriptions, refs] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptions(),
    store.channels.listSubscriptionRefs(),
  ]);
  const follows = new Map<number, number>();
  for (const sub of subscriptions) follows.set(sub.channelId, (follows.get(sub.channelId) ?? 0) + 1);
  assert.deepEqual(
    await store.reading.channelSummaries(),
    channels.map((ch) => ({ ...ch, unread: kept.get(ch.id) ?? 0, followed: follows.get(ch.id) ?? 0 })),
    `channel summaries after ${step}`,
  );
  for (const [channelId, unread] of kept) {
    const sum = refs
      .filter((ref) => ref.channelId === channelId)
      .reduce((total, ref) => total + ref.unread, 0);
    assert.equal(sum, unread, `per-feed counts of channel ${channelId} after ${step}`);
  }
  assert.deepEqual(
    refs.map((ref) => [ref.channelId, ref.feedId, ref.unread]),
    subscriptions.map((sub) => [
      sub.channelId,
      sub.feedId,
      paged.byFeed.get(`${sub.channelId}:${sub.feedId}`) ?? 0,
    ]),
    `subscription refs' counts after ${step}`,
  );
}

const entries = (prefix: string, count: number, authorUrl?: string) =>
  Array.from({ length: count }, (_, i) =>
    testEntry(`${prefix}-${i}`, { sortAt: at(i), ...(authorUrl === undefined ? {} : { authorUrl }) }),
  );

function readingStateSuite(backend: StoreBackend) {
  let store: Store;
  before(async () => {
    store = await backend.open();
  });
  after(() => backend.cleanup());

  it('keeps counts equal to a recount after every kind of write', async () => {
    const a = await store.channels.create('a');
    const b = await store.channels.create('b');
    const f1 = await store.feeds.add('https://one.example/feed.xml', at(0));
    const f2 = await store.feeds.add('https://two.example/feed.xml', at(0));
    const f3 = await store.feeds.add('https://three.example/feed.xml', at(0));
    await store.channels.subscribe(a.id, f1.id, at(0));
    await store.channels.subscribe(a.id, f2.id, at(0));
    await store.channels.subscribe(b.id, f2.id, at(0));
    await assertKept(store, 'subscribe');

    const written = await store.polling.record(testPoll(f1.id, entries('one', 30, 'https://ann.example/')));
    await store.polling.record(testPoll(f2.id, entries('two', 20)));
    await store.polling.record(testPoll(f3.id, entries('three', 10)));
    await assertKept(store, 'new entries');
    assert.deepEqual(
      (await store.reading.unreadCounts())
        .filter((count) => count.channelId !== 1)
        .map((count) => count.unread),
      [50, 20],
    );

    const ids = written.insertedIds;
    await store.reading.markRead(a.id, ids.slice(0, 10), true, at(2));
    await store.reading.markRead(a.id, ids.slice(0, 5), true, at(2));
    await assertKept(store, 'mark read');
    await store.reading.markRead(a.id, ids.slice(0, 3), false, at(3));
    await assertKept(store, 'mark unread');
    await store.reading.markReadUpTo(a.id, ids[20]!, at(4));
    await assertKept(store, 'mark read up to');
    await store.reading.removeEntries(a.id, ids.slice(25, 28), at(5));
    await assertKept(store, 'remove entries');
    await store.reading.removeFeedEntries(b.id, f2.id, at(6));
    await assertKept(store, 'remove feed entries');

    await store.filters.add({ kind: 'mute', url: 'https://ann.example/' }, at(7));
    await assertKept(store, 'global mute');
    await store.filters.add({ channelId: a.id, kind: 'block', url: 'https://two.example/feed.xml' }, at(7));
    await assertKept(store, 'channel block');
    await store.filters.remove({ kind: 'mute', url: 'https://ann.example/' });
    await assertKept(store, 'unmute');
    await store.feeds.update(f3.id, { siteUrl: 'https://two.example/feed.xml' });
    await store.channels.subscribe(a.id, f3.id, at(8));
    await assertKept(store, 'a site URL a rule names');

    const changed = { ...testEntry('one-29', { authorUrl: 'https://bob.example/' }), id: ids[29]! };
    await store.filters.add({ kind: 'mute', url: 'https://bob.example/' }, at(9));
    await store.polling.record(testPoll(f1.id, [], at(10), { changedEntries: [changed] }));
    await assertKept(store, 'a changed author');

    await store.channels.moveSubscription(f1.id, a.id, b.id, at(11));
    await assertKept(store, 'move');
    await store.channels.unsubscribe(b.id, f2.id);
    await assertKept(store, 'unsubscribe');
    await store.channels.subscribe(b.id, f2.id, at(12));
    await assertKept(store, 'subscribe again');
    await store.feeds.remove(f3.id);
    await assertKept(store, 'remove feed');
    await store.channels.delete(a.uid);
    await assertKept(store, 'delete channel');
  });

  it('keeps counts right with two stores polling and marking at once', async () => {
    // PostgreSQL: two pools, as two processes. SQLite: the one connection, whose transactions take turns
    // (two connections in one process would wait on each other's lock with the thread blocked; processes
    // take turns through BEGIN IMMEDIATE).
    const peer = backend.name === 'postgres' ? await backend.openPeer(store) : store;
    const channel = await store.channels.create('concurrent');
    const feeds = await Promise.all(
      [0, 1, 2, 3].map((i) => store.feeds.add(`https://c${i}.example/feed.xml`, at(0))),
    );
    for (const feed of feeds) await store.channels.subscribe(channel.id, feed.id, at(0));
    const first = await store.polling.record(testPoll(feeds[0]!.id, entries('c0', 40)));
    await Promise.all([
      store.polling.record(testPoll(feeds[1]!.id, entries('c1', 40))),
      peer.polling.record(testPoll(feeds[2]!.id, entries('c2', 40))),
      peer.reading.markRead(channel.id, first.insertedIds.slice(0, 20), true, at(2)),
      store.reading.markRead(channel.id, first.insertedIds.slice(10, 30), true, at(2)),
      peer.filters.add({ channelId: channel.id, kind: 'mute', url: 'https://c3.example/feed.xml' }, at(2)),
      store.polling.record(testPoll(feeds[3]!.id, entries('c3', 40))),
      peer.channels.subscribe((await store.channels.list())[0]!.id, feeds[1]!.id, at(2)),
    ]);
    await assertKept(store, 'concurrent writes');
    const counts = new Map(
      (await store.reading.unreadCounts()).map((count) => [count.channelId, count.unread]),
    );
    assert.equal(counts.get(channel.id), 10 + 40 + 40);
  });

  it('leaves nothing half-written when a write fails midway', async () => {
    const channel = await store.channels.create('crash');
    const feed = await store.feeds.add('https://crash.example/feed.xml', at(0));
    await store.channels.subscribe(channel.id, feed.id, at(0));
    const written = await store.polling.record(testPoll(feed.id, entries('crash', 10)));
    const before = await store.reading.unreadCounts();
    // A failure after channel_entries and entry_states are written, at the count: all must roll back.
    await runSql(
      backend,
      store,
      backend.name === 'sqlite'
        ? `CREATE TRIGGER crash BEFORE INSERT ON unread_counts BEGIN SELECT RAISE(ABORT, 'crash'); END;`
        : `CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'crash'; END $$;
           CREATE TRIGGER crash BEFORE INSERT ON unread_counts FOR EACH ROW EXECUTE FUNCTION crash();`,
    );
    await assert.rejects(store.reading.markRead(channel.id, written.insertedIds.slice(0, 4), true, at(2)));
    await assert.rejects(store.polling.record(testPoll(feed.id, entries('crash-more', 5), at(3))));
    await runSql(
      backend,
      store,
      'DROP TRIGGER crash' + (backend.name === 'sqlite' ? '' : ' ON unread_counts'),
    );
    assert.deepEqual(await store.reading.unreadCounts(), before);
    const page = await store.reading.timeline({ channelId: channel.id, limit: 50 });
    assert.equal(page.entries.length, 10);
    assert.ok(page.entries.every((entry) => !entry.isRead));
    await assertKept(store, 'failed writes');
  });

  it('reports drift and repairs it', async () => {
    await runSql(
      backend,
      store,
      'UPDATE unread_counts SET unread = unread + 7; DELETE FROM channel_entries WHERE entry_id IN (SELECT MIN(entry_id) FROM channel_entries)',
    );
    const found = await store.reading.checkState({ repair: false });
    assert.equal(found.missingRows, 1);
    assert.ok(found.countDrift.length > 0);
    assert.ok(found.countDrift.every((drift) => drift.kept !== drift.actual));
    const repaired = await store.reading.checkState({ repair: true });
    assert.equal(repaired.repaired, true);
    await assertKept(store, 'repair');
  });
}

for (const backend of storeBackends()) {
  describe(`kept reading state on ${backend.name}`, { skip: backend.skip }, () => readingStateSuite(backend));
}
