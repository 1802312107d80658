import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type SqlBool, sql } from 'kysely';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import { readMigrations } from '../migrate.js';
import { openSqliteDatabase } from '../sqlite/dialect.js';
import type { Store } from '../store.js';
import { allUnreadKeys } from './reading.js';

/** A new feed with `count` entries `${name}-0..` one minute apart (0 oldest), followed by `channelId`. */
async function feedWithEntries(store: Store, channelId: number, name: string, count: number) {
  const feed = await store.feeds.add(`https://example.org/${name}.xml`, at(0));
  await store.channels.subscribe(channelId, feed.id, at(0));
  const entries = Array.from({ length: count }, (_, i) => testEntry(`${name}-${i}`, { sortAt: at(i) }));
  await store.polling.record(testPoll(feed.id, entries));
  const stored = await store.entries.listByFeed(feed.id, 1000);
  const id = (n: number) => stored.find((entry) => entry.guid === `${name}-${n}`)?.id ?? -1;
  return { feed, id };
}

function suite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it('counts unread entries per subscription, leaving read, removed and muted ones out (0s included)', async () => {
    const store = await backend.open();
    const news = await store.channels.create('news');
    const later = await store.channels.create('later');
    const a = await feedWithEntries(store, news.id, 'a', 4);
    const b = await feedWithEntries(store, news.id, 'b', 3);
    await store.channels.subscribe(later.id, a.feed.id, at(0));
    await store.reading.markRead(news.id, [a.id(0)], true, at(9));
    await store.reading.removeEntries(news.id, [a.id(1)], at(9));
    await store.filters.add({ channelId: news.id, kind: 'mute', url: b.feed.url }, at(9));
    const counts = (await store.channels.listSubscriptionRefs()).map(({ channelId, feedId, unread }) => ({
      channelId,
      feedId,
      unread,
    }));
    const sorted = counts.sort((x, y) => x.channelId - y.channelId || x.feedId - y.feedId);
    // Every subscription has a row since the kept counts (work/scale): the muted feed's is 0.
    assert.deepEqual(sorted, [
      { channelId: news.id, feedId: a.feed.id, unread: 2 },
      { channelId: news.id, feedId: b.feed.id, unread: 0 },
      { channelId: later.id, feedId: a.feed.id, unread: 4 },
    ]);
  });

  it('lists All unread across channels once each, newest first, with cursors', async () => {
    const store = await backend.open();
    const news = await store.channels.create('news');
    const later = await store.channels.create('later');
    const a = await feedWithEntries(store, news.id, 'a', 3);
    const b = await feedWithEntries(store, later.id, 'b', 2);
    await store.channels.subscribe(later.id, a.feed.id, at(0));
    await store.reading.markRead(later.id, [b.id(1)], true, at(9));
    const first = await store.reading.allUnread({ limit: 3 });
    assert.deepEqual(
      first.entries.map((e) => e.guid),
      ['a-2', 'a-1', 'b-0'],
    );
    assert.ok(first.after);
    const second = await store.reading.allUnread({ limit: 3, after: first.after });
    assert.deepEqual(
      second.entries.map((e) => e.guid),
      ['a-0'],
    );
    const newer = await store.reading.allUnread({ limit: 2, before: second.before });
    assert.deepEqual(
      newer.entries.map((e) => e.guid),
      ['a-1', 'b-0'],
    );
    assert.ok(newer.after);
    // read in one of the two channels that follow it: still unread in the other
    await store.reading.markRead(news.id, [a.id(2)], true, at(9));
    assert.equal((await store.reading.allUnread({ limit: 10 })).entries.length, 4);
    // read in both, or removed from the one channel that shows it: gone
    await store.reading.markRead(later.id, [a.id(2)], true, at(9));
    await store.reading.removeEntries(later.id, [b.id(0)], at(9));
    assert.deepEqual(
      (await store.reading.allUnread({ limit: 10 })).entries.map((e) => e.guid),
      ['a-1', 'a-0'],
    );
  });

  it('marks read up to an entry or one feed and returns exactly the ids it changed', async () => {
    const store = await backend.open();
    const news = await store.channels.create('news');
    const a = await feedWithEntries(store, news.id, 'a', 5);
    const b = await feedWithEntries(store, news.id, 'b', 2);
    await store.reading.markRead(news.id, [a.id(1)], true, at(9));
    const upTo = await store.reading.markReadReturningIds(news.id, { upToEntryId: a.id(2) }, at(10));
    assert.deepEqual(upTo.sort(), [a.id(0), a.id(2), b.id(0), b.id(1)].sort());
    const feedOnly = await store.reading.markReadReturningIds(news.id, { feedId: a.feed.id }, at(11));
    assert.deepEqual(feedOnly.sort(), [a.id(3), a.id(4)].sort());
    assert.deepEqual(await store.reading.markReadReturningIds(news.id, {}, at(12)), []);
    await store.reading.markRead(news.id, upTo, false, at(13));
    const unread = await store.reading.timeline({ channelId: news.id, limit: 10, unreadOnly: true });
    assert.deepEqual(
      unread.entries.map((e) => e.guid),
      ['a-2', 'b-1', 'b-0', 'a-0'],
    );
  });

  it('keeps one icon per feed, records that none was found, and drops it with the feed', async () => {
    const store = await backend.open();
    const feed = await store.feeds.add('https://example.org/icon.xml', at(0));
    assert.equal(await store.icons.get(feed.id), undefined);
    await store.icons.save(feed.id, undefined, at(1));
    assert.deepEqual(await store.icons.get(feed.id), {
      contentType: '',
      bytes: new Uint8Array(),
      fetchedAt: at(1),
    });
    assert.deepEqual(await store.icons.feedIds(), []);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    await store.icons.save(feed.id, { contentType: 'image/png', bytes: png }, at(2));
    assert.deepEqual(await store.icons.get(feed.id), {
      contentType: 'image/png',
      bytes: png,
      fetchedAt: at(2),
    });
    assert.deepEqual(await store.icons.feedIds(), [feed.id]);
    await store.feeds.remove(feed.id);
    assert.equal(await store.icons.get(feed.id), undefined);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => suite(backend));
}

describe('All unread on SQLite', () => {
  it('reads its page from the index of unread rows, without sorting or looking up entries', async () => {
    const { db, database } = openSqliteDatabase(':memory:');
    for (const migration of await readMigrations('sqlite'))
      for (const statement of migration.statements) database.exec(statement);
    const newestFirst = allUnreadKeys(db, 'sqlite', 1)
      .orderBy('channel_entries.sort_at', 'desc')
      .orderBy('channel_entries.entry_id', 'desc')
      .limit(21);
    const pages = [
      newestFirst.compile(),
      newestFirst
        .where(
          sql<SqlBool>`(channel_entries.sort_at, channel_entries.entry_id) < (${'2026-01-01T00:00:00.000Z'}, ${7})`,
        )
        .compile(),
    ];
    for (const page of pages) {
      const plan = database
        .prepare(`EXPLAIN QUERY PLAN ${page.sql}`)
        .all(...page.parameters)
        .map((row) => (row as { detail: string }).detail);
      assert.equal(plan.length, 1, plan.join('; '));
      assert.match(
        plan[0] ?? '',
        /^(SCAN|SEARCH) channel_entries USING (COVERING )?INDEX channel_entries_unread_all\b/,
      );
    }
    await db.destroy();
  });
});
