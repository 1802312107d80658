import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import { encodeCursor } from '../cursor.js';
import { templateFallbacks } from '../query-template.js';
import type { Store } from '../store.js';
import { StoreError } from '../store-error.js';
import type { TimelinePage } from '../types.js';

const guids = (page: TimelinePage) => page.entries.map((entry) => entry.guid);

/**
 * A channel following a new feed with `count` entries e0..e(count-1), sorted one minute apart (e0
 * oldest). Returns the entry ids by guid.
 */
async function channelWithEntries(store: Store, count: number, name = 'news') {
  const channel = await store.channels.create(name);
  const feed = await store.feeds.add(`https://example.org/${name}.xml`, at(0));
  await store.channels.subscribe(channel.id, feed.id, at(0));
  const entries = Array.from({ length: count }, (_, i) => testEntry(`${name}-${i}`, { sortAt: at(i) }));
  await store.polling.record(testPoll(feed.id, entries));
  const stored = await store.entries.listByFeed(feed.id, 1000);
  const id = (n: number) => stored.find((entry) => entry.guid === `${name}-${n}`)?.id ?? -1;
  return { channel, feed, id };
}

function readerSuite(backend: StoreBackend) {
  after(() => backend.cleanup());

  describe('timeline paging', () => {
    it('pages newest first with after, and marks only pages with older entries below', async () => {
      const store = await backend.open();
      const { channel } = await channelWithEntries(store, 5, 'p');
      const first = await store.reading.timeline({ channelId: channel.id, limit: 2 });
      assert.deepEqual(guids(first), ['p-4', 'p-3']);
      assert.ok(first.before !== undefined && first.after !== undefined);
      const second = await store.reading.timeline({ channelId: channel.id, limit: 2, after: first.after });
      assert.deepEqual(guids(second), ['p-2', 'p-1']);
      const last = await store.reading.timeline({ channelId: channel.id, limit: 2, after: second.after });
      assert.deepEqual(guids(last), ['p-0']);
      assert.equal(last.after, undefined);
      assert.ok(last.before !== undefined);
      const exact = await store.reading.timeline({ channelId: channel.id, limit: 5 });
      assert.equal(exact.after, undefined);
      assert.equal(exact.entries[0]?.feed.url, 'https://example.org/p.xml');
      assert.equal(exact.entries[0]?.isRead, false);
    });

    it("binds a timeline page's and the channel list's values to SQL compiled once, for every user", async () => {
      const store = await backend.open();
      const { channel, feed } = await channelWithEntries(store, 5, 'tpl');
      const other = store.forUser((await store.users.add({ name: 'tpl-other', isAdmin: false }, at(0))).id);
      const theirs = await channelWithEntries(other, 3, 'tpl-other');
      const before = templateFallbacks();
      for (const [reader, channelId, feedId] of [
        [store, channel.id, feed.id],
        [other, theirs.channel.id, theirs.feed.id],
      ] as const) {
        const first = await reader.reading.timelineRefs({ channelId, limit: 2 });
        assert.equal(first.refs.length, 2);
        const older = await reader.reading.timelineRefs({ channelId, limit: 2, after: first.after });
        assert.equal(older.refs.length, 1 + Number(channelId === channel.id));
        const newer = await reader.reading.timelineRefs({ channelId, limit: 1, before: older.before });
        assert.deepEqual(
          newer.refs.map((ref) => ref.id),
          first.refs.slice(-1).map((ref) => ref.id),
        );
        await reader.reading.timelineRefs({ channelId, limit: 2, feedId, unreadOnly: true });
        // the channel list with its counts, each user's own
        const summaries = await reader.reading.channelSummaries();
        const summary = summaries.find((one) => one.id === channelId);
        assert.equal(summary?.unread, channelId === channel.id ? 5 : 3);
        const unread = summaries.reduce((sum, one) => sum + one.unread, 0);
        assert.equal((await reader.reading.overview()).allUnread, unread);
      }
      assert.equal(templateFallbacks(), before, 'no page or channel list query compiled again');
    });

    it('neither overlaps nor skips while new entries arrive at the top between requests', async () => {
      const store = await backend.open();
      const { channel, feed } = await channelWithEntries(store, 7, 'c');
      const first = await store.reading.timeline({ channelId: channel.id, limit: 3 });
      assert.deepEqual(guids(first), ['c-6', 'c-5', 'c-4']);
      // Entries that arrive after the first read sort at their arrival (poll/entries.ts): above all.
      const arrivals = [testEntry('c-new1', { sortAt: at(100) }), testEntry('c-new2', { sortAt: at(101) })];
      await store.polling.record(testPoll(feed.id, arrivals, at(101)));
      const second = await store.reading.timeline({ channelId: channel.id, limit: 3, after: first.after });
      assert.deepEqual(guids(second), ['c-3', 'c-2', 'c-1']);
      const third = await store.reading.timeline({ channelId: channel.id, limit: 3, after: second.after });
      assert.deepEqual(guids(third), ['c-0']);
      assert.equal(third.after, undefined);
      const newer = await store.reading.timeline({ channelId: channel.id, limit: 10, before: first.before });
      assert.deepEqual(guids(newer), ['c-new2', 'c-new1']);
      assert.ok(newer.after !== undefined);
      const closest = await store.reading.timeline({ channelId: channel.id, limit: 1, before: first.before });
      assert.deepEqual(guids(closest), ['c-new1']);
      assert.deepEqual(
        guids(await store.reading.timeline({ channelId: channel.id, limit: 3, after: closest.after })),
        ['c-6', 'c-5', 'c-4'],
      );
      // Nothing newer: an empty page that hands the same cursor back for the next poll.
      const none = await store.reading.timeline({ channelId: channel.id, limit: 3, before: newer.before });
      assert.deepEqual(none, { entries: [], before: newer.before });
    });

    it('breaks ties of sort time on id, across pages', async () => {
      const store = await backend.open();
      const channel = await store.channels.create('ties');
      const feed = await store.feeds.add('https://example.org/ties.xml', at(0));
      await store.channels.subscribe(channel.id, feed.id, at(0));
      const same = ['t0', 't1', 't2', 't3'].map((guid) => testEntry(guid, { sortAt: at(5) }));
      await store.polling.record(testPoll(feed.id, same));
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.reading.timeline({ channelId: channel.id, limit: 1, after: cursor });
        seen.push(...guids(page));
        cursor = page.after;
      } while (cursor !== undefined);
      assert.deepEqual(seen, ['t3', 't2', 't1', 't0']);
      const [, , t1] = (await store.reading.timeline({ channelId: channel.id, limit: 9 })).entries;
      await store.reading.markReadUpTo(channel.id, t1!.id, at(10));
      const unread = await store.reading.timeline({ channelId: channel.id, limit: 9, unreadOnly: true });
      assert.deepEqual(guids(unread), ['t3', 't2']);
    });

    it('refuses cursors it did not write and limits below one', async () => {
      const store = await backend.open();
      const channelId = (await store.channels.create('bad')).id;
      const bad = [
        'nonsense!',
        '',
        Buffer.from('2024-03-01|1').toString('base64url'),
        Buffer.from('2024-03-01T12:00:00.000Z|1|2').toString('base64url'),
        Buffer.from('2024-03-01T12:00:00.000Z|-1').toString('base64url'),
      ];
      for (const cursor of bad) {
        await assert.rejects(store.reading.timeline({ channelId, limit: 5, after: cursor }), {
          kind: 'invalid',
        });
        await assert.rejects(store.reading.timeline({ channelId, limit: 5, before: cursor }), StoreError);
      }
      const good = encodeCursor({ sortAt: at(0), id: 1 });
      await assert.rejects(store.reading.timeline({ channelId, limit: 5, after: good, before: good }), {
        kind: 'invalid',
      });
      await assert.rejects(store.reading.timeline({ channelId, limit: 0 }), { kind: 'invalid' });
      assert.deepEqual(await store.reading.timeline({ channelId, limit: 5, after: good }), { entries: [] });
    });

    it('shows one source, or only unread entries', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 3, 's');
      const other = await store.feeds.add('https://example.org/other.xml', at(0));
      await store.channels.subscribe(channel.id, other.id, at(0));
      await store.polling.record(testPoll(other.id, [testEntry('o-0', { sortAt: at(50) })]));
      assert.deepEqual(guids(await store.reading.timeline({ channelId: channel.id, limit: 9 })), [
        'o-0',
        's-2',
        's-1',
        's-0',
      ]);
      const source = await store.reading.timeline({ channelId: channel.id, feedId: feed.id, limit: 9 });
      assert.deepEqual(guids(source), ['s-2', 's-1', 's-0']);
      await store.reading.markRead(channel.id, [id(1)], true, at(60));
      const unread = await store.reading.timeline({ channelId: channel.id, limit: 9, unreadOnly: true });
      assert.deepEqual(guids(unread), ['o-0', 's-2', 's-0']);
      const unreadPage = await store.reading.timeline({ channelId: channel.id, limit: 2, unreadOnly: true });
      assert.deepEqual(
        guids(
          await store.reading.timeline({
            channelId: channel.id,
            limit: 2,
            unreadOnly: true,
            after: unreadPage.after,
          }),
        ),
        ['s-0'],
      );
    });
  });

  describe('read and removed state', () => {
    it('marks read and unread per channel, and loads entries by id with that state', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 3, 'r');
      const second = await store.channels.create('second');
      await store.channels.subscribe(second.id, feed.id, at(0));
      await store.reading.markRead(channel.id, [id(0), id(2), 999_999], true, at(10));
      const byId = await store.reading.entriesById(channel.id, [id(2), id(1), id(0), 999_999]);
      assert.deepEqual(
        byId.map((entry) => [entry.guid, entry.isRead]),
        [
          ['r-2', true],
          ['r-1', false],
          ['r-0', true],
        ],
      );
      assert.deepEqual(
        (await store.reading.entriesById(second.id, [id(2)])).map((entry) => entry.isRead),
        [false],
      );
      await store.reading.markRead(channel.id, [id(2)], false, at(11));
      const page = await store.reading.timeline({ channelId: channel.id, limit: 5 });
      assert.deepEqual(
        page.entries.map((entry) => entry.isRead),
        [false, false, true],
      );
    });

    it('marks an entry and everything below it read, in that channel only', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 5, 'u');
      const second = await store.channels.create('second');
      await store.channels.subscribe(second.id, feed.id, at(0));
      await store.reading.markRead(channel.id, [id(1)], true, at(5));
      await store.reading.markReadUpTo(channel.id, id(2), at(10));
      const page = await store.reading.timeline({ channelId: channel.id, limit: 9 });
      assert.deepEqual(
        page.entries.map((entry) => [entry.guid, entry.isRead]),
        [
          ['u-4', false],
          ['u-3', false],
          ['u-2', true],
          ['u-1', true],
          ['u-0', true],
        ],
      );
      const elsewhere = await store.reading.timeline({ channelId: second.id, limit: 9, unreadOnly: true });
      assert.equal(elsewhere.entries.length, 5);
      await store.reading.markReadUpTo(channel.id, 999_999, at(11));
    });

    it('removes entries, or a whole feed, from one channel', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 3, 'x');
      const second = await store.channels.create('second');
      await store.channels.subscribe(second.id, feed.id, at(0));
      await store.reading.removeEntries(channel.id, [id(1)], at(5));
      assert.deepEqual(guids(await store.reading.timeline({ channelId: channel.id, limit: 9 })), [
        'x-2',
        'x-0',
      ]);
      // A removed entry keeps its read state: mark it read, then removed, and it stays both.
      await store.reading.markRead(channel.id, [id(1)], true, at(6));
      assert.deepEqual(guids(await store.reading.timeline({ channelId: channel.id, limit: 9 })), [
        'x-2',
        'x-0',
      ]);
      await store.reading.removeFeedEntries(channel.id, feed.id, at(7));
      assert.deepEqual(await store.reading.timeline({ channelId: channel.id, limit: 9 }), { entries: [] });
      assert.equal((await store.reading.timeline({ channelId: second.id, limit: 9 })).entries.length, 3);
    });

    it('moves a subscription with its read and removed state', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 3, 'm');
      const target = await store.channels.create('target');
      await store.reading.markRead(channel.id, [id(0)], true, at(5));
      await store.reading.removeEntries(channel.id, [id(1)], at(5));
      await store.channels.moveSubscription(feed.id, channel.id, target.id, at(6));
      assert.deepEqual(await store.reading.timeline({ channelId: channel.id, limit: 9 }), { entries: [] });
      const moved = await store.reading.timeline({ channelId: target.id, limit: 9 });
      assert.deepEqual(
        moved.entries.map((entry) => [entry.guid, entry.isRead]),
        [
          ['m-2', false],
          ['m-0', true],
        ],
      );
      assert.deepEqual(
        (await store.channels.listSubscriptions(target.id)).map((sub) => sub.feedId),
        [feed.id],
      );
      await assert.rejects(store.channels.moveSubscription(feed.id, channel.id, target.id, at(7)), {
        kind: 'not_found',
      });
    });

    it('keeps what was read in the target channel when a subscription moves there', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 3, 'k');
      const target = await store.channels.create('target');
      await store.channels.subscribe(target.id, feed.id, at(0));
      await store.reading.markRead(target.id, [id(2)], true, at(5));
      await store.reading.markRead(channel.id, [id(0)], true, at(5));
      await store.reading.markRead(channel.id, [id(2)], false, at(6));
      await store.channels.moveSubscription(feed.id, channel.id, target.id, at(7));
      const moved = await store.reading.timeline({ channelId: target.id, limit: 9 });
      assert.deepEqual(
        moved.entries.map((entry) => [entry.guid, entry.isRead]),
        [
          ['k-2', true],
          ['k-1', false],
          ['k-0', true],
        ],
      );
      assert.equal((await store.channels.listSubscriptions(target.id)).length, 1);
    });

    it('counts unread entries in every channel, zeros included', async () => {
      const store = await backend.open();
      const { channel, feed, id } = await channelWithEntries(store, 4, 'n');
      const empty = await store.channels.create('empty');
      const second = await store.channels.create('second');
      await store.channels.subscribe(second.id, feed.id, at(0));
      await store.reading.markRead(channel.id, [id(0)], true, at(5));
      await store.reading.removeEntries(channel.id, [id(1)], at(5));
      await store.reading.markRead(second.id, [id(3)], true, at(5));
      await store.reading.markRead(second.id, [id(3)], false, at(6));
      const notifications = (await store.channels.get('notifications'))?.id;
      assert.deepEqual(await store.reading.unreadCounts(), [
        { channelId: notifications, unread: 0 },
        { channelId: channel.id, unread: 2 },
        { channelId: empty.id, unread: 0 },
        { channelId: second.id, unread: 4 },
      ]);
    });
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => readerSuite(backend));
}
