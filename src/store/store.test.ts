import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addFollowedFeed, type StoreBackend, storeBackends } from '../../test/helpers/temp-store.js';
import type { Store } from './store.js';
import { StoreError } from './store-error.js';
import type { NewEntry, PollOutcome } from './types.js';

const T0 = Date.parse('2024-03-01T12:00:00.000Z');
/** The time `minutes` after T0, as the store writes it. */
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const LEASE_MS = 5 * 60_000;

function newEntry(guid: string, overrides: Partial<NewEntry> = {}): NewEntry {
  return {
    guid,
    url: `https://example.org/${guid}`,
    title: `Title ${guid}`,
    sortAt: at(0),
    authors: [{ name: 'Ann' }],
    categories: ['news'],
    enclosures: [],
    extra: {},
    contentHash: `hash-${guid}`,
    ...overrides,
  };
}

function outcome(feedId: number, overrides: Partial<PollOutcome> = {}): PollOutcome {
  return {
    feedId,
    workerId: 'worker-a',
    now: at(1),
    feedPatch: { status: 'ok', lastCheckedAt: at(1), nextCheckAt: at(61) },
    heartbeat: {
      at: at(1),
      status: 'ok',
      newCount: 0,
      updatedCount: 0,
      bytes: 10,
      durationMs: 5,
      diagnostics: [],
    },
    newEntries: [],
    changedEntries: [],
    ...overrides,
  };
}

async function addFeeds(store: Store, count: number, now = at(0)): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++)
    ids.push((await addFollowedFeed(store, `https://example.org/feed-${i}.xml`, now)).id);
  return ids;
}

const ids = (feeds: readonly { id: number }[]) => feeds.map((feed) => feed.id);

function storeSuite(backend: StoreBackend) {
  let store: Store;
  before(async () => {
    store = await backend.open();
  });
  after(() => backend.cleanup());
  // Each test that needs an empty database opens its own; `store` is shared by the ones that do not care.
  const fresh = () => backend.open();

  describe('migrations', () => {
    it('applies nothing the second time and keeps one notifications channel at position 0', async () => {
      await store.migrate();
      await store.migrate();
      const channels = await store.channels.list();
      assert.deepEqual(
        channels.filter((c) => c.uid === 'notifications').map((c) => [c.name, c.position]),
        [['Notifications', 0]],
      );
    });

    it('lets two processes migrate one empty database at once', {
      skip: skipUnlessPostgres(backend),
    }, async () => {
      const first = await backend.open({ migrated: false });
      const second = await backend.openPeer(first);
      await Promise.all([first.migrate(), second.migrate()]);
      assert.equal((await second.channels.list()).length, 1);
    });
  });

  describe('feeds', () => {
    it('adds a feed due at once with default state', async () => {
      const feed = await store.feeds.add('https://example.org/new.xml', '2024-03-01T13:00:00+01:00');
      assert.equal(feed.url, 'https://example.org/new.xml');
      assert.equal(feed.originalUrl, feed.url);
      assert.equal(feed.nextCheckAt, at(0));
      assert.equal(feed.createdAt, at(0));
      assert.deepEqual(
        [feed.errorCount, feed.paused, feed.trustsValidators, feed.pendingMoveCount],
        [0, false, true, 0],
      );
      assert.deepEqual(feed.diagnostics, []);
      assert.equal('title' in feed, false);
    });

    it('returns the stored feed when the URL is added again, as subscribed or as moved', async () => {
      const feed = await store.feeds.add('https://example.org/moving.xml', at(0));
      assert.equal((await store.feeds.add('https://example.org/moving.xml', at(5))).id, feed.id);
      await store.feeds.update(feed.id, { url: 'https://example.com/moved.xml' });
      assert.equal((await store.feeds.add('https://example.org/moving.xml', at(6))).id, feed.id);
      assert.equal((await store.feeds.add('https://example.com/moved.xml', at(6))).id, feed.id);
      assert.equal((await store.feeds.findByUrl('https://example.org/moving.xml'))?.id, feed.id);
      assert.equal(await store.feeds.findByUrl('https://example.org/never.xml'), undefined);
    });

    it('patches fields, normalizes times, clears with null and resets counters', async () => {
      const feed = await store.feeds.add('https://example.org/patch.xml', at(0));
      const diagnostics = [
        { severity: 'warning' as const, code: 'date.unparseable', message: 'bad date', line: 3 },
      ];
      await store.feeds.update(feed.id, {
        title: 'Patched',
        paused: true,
        errorCount: 3,
        pollIntervalSeconds: 900,
        retryAfterAt: '2024-03-01T14:00:00+02:00',
        diagnostics,
      });
      const patched = await store.feeds.get(feed.id);
      assert.deepEqual(
        [
          patched?.title,
          patched?.paused,
          patched?.errorCount,
          patched?.pollIntervalSeconds,
          patched?.retryAfterAt,
        ],
        ['Patched', true, 3, 900, at(0)],
      );
      assert.deepEqual(patched?.diagnostics, diagnostics);
      await store.feeds.update(feed.id, { title: null, errorCount: null, paused: false, retryAfterAt: null });
      const cleared = await store.feeds.get(feed.id);
      assert.equal(cleared?.title, undefined);
      assert.equal(cleared?.retryAfterAt, undefined);
      assert.deepEqual([cleared?.errorCount, cleared?.paused], [0, false]);
      await assert.rejects(store.feeds.update(feed.id, { nextCheckAt: 'soon' }), StoreError);
    });

    it('removes a feed with its entries, heartbeats and subscriptions', async () => {
      const own = await fresh();
      const [feedId] = await addFeeds(own, 1);
      const channel = await own.channels.create('Reading');
      await own.channels.subscribe(channel.id, feedId!, at(0));
      const { insertedIds } = await own.polling.record(outcome(feedId!, { newEntries: [newEntry('a')] }));
      await own.feeds.remove(feedId!);
      assert.equal(await own.feeds.get(feedId!), undefined);
      assert.equal(await own.entries.get(insertedIds[0]!), undefined);
      assert.deepEqual(await own.heartbeats.list(feedId!, 10), []);
      assert.deepEqual(await own.channels.listSubscriptions(), []);
      assert.equal((await own.channels.get(channel.uid))?.name, 'Reading');
    });
  });

  describe('claiming', () => {
    it('claims due feeds soonest first, up to the limit, and leases them', async () => {
      const own = await fresh();
      const [a, b, c] = await addFeeds(own, 3);
      await own.feeds.update(a!, { nextCheckAt: at(10) });
      await own.feeds.update(c!, { nextCheckAt: at(-10) });
      const claimed = await own.polling.claimDue({ now: at(5), limit: 5, workerId: 'w1', leaseMs: LEASE_MS });
      assert.deepEqual(ids(claimed), [c, b]);
      assert.deepEqual(
        await own.polling.claimDue({ now: at(5), limit: 5, workerId: 'w2', leaseMs: LEASE_MS }),
        [],
      );
      // The worker's own live lease holds too: a worker never polls one feed twice at once.
      assert.deepEqual(
        await own.polling.claimDue({ now: at(5), limit: 5, workerId: 'w1', leaseMs: LEASE_MS }),
        [],
      );
      const forced = await own.polling.claimDue({
        now: at(8),
        limit: 1,
        workerId: 'w3',
        leaseMs: LEASE_MS,
        force: true,
      });
      assert.deepEqual(ids(forced), [a]);
    });

    it('claims feeds whose last fetch failed before the others: they may run into the timeout', async () => {
      const own = await fresh();
      const [a, b, c] = await addFeeds(own, 3);
      await own.feeds.update(a!, { nextCheckAt: at(-20) });
      await own.feeds.update(c!, { nextCheckAt: at(-5), errorCount: 2, status: 'fetch_error' });
      const claimed = await own.polling.claimDue({ now: at(5), limit: 2, workerId: 'w1', leaseMs: LEASE_MS });
      assert.deepEqual(ids(claimed), [c, a]);
      assert.deepEqual(
        ids(await own.polling.claimDue({ now: at(5), limit: 5, workerId: 'w2', leaseMs: LEASE_MS })),
        [b],
      );
    });

    it('lets another worker reclaim an expired lease, and a released feed', async () => {
      const own = await fresh();
      const [a, b] = await addFeeds(own, 2);
      await own.polling.claimDue({ now: at(0), limit: 5, workerId: 'w1', leaseMs: LEASE_MS });
      await own.polling.release(b!, 'w2');
      assert.deepEqual(
        await own.polling.claimDue({ now: at(4), limit: 5, workerId: 'w2', leaseMs: LEASE_MS }),
        [],
      );
      await own.polling.release(b!, 'w1');
      assert.deepEqual(
        ids(await own.polling.claimDue({ now: at(4), limit: 5, workerId: 'w2', leaseMs: LEASE_MS })),
        [b],
      );
      assert.deepEqual(
        ids(await own.polling.claimDue({ now: at(5), limit: 5, workerId: 'w3', leaseMs: LEASE_MS })),
        [a],
      );
    });

    it('never claims paused, gone or Retry-After feeds; force skips only the schedule', async () => {
      const own = await fresh();
      const [paused, gone, retry, later, due] = await addFeeds(own, 5);
      await own.feeds.update(paused!, { paused: true });
      await own.feeds.update(gone!, { status: 'gone' });
      await own.feeds.update(retry!, { retryAfterAt: at(30) });
      await own.feeds.update(later!, { nextCheckAt: at(60), status: 'fetch_error' });
      const options = { now: at(1), limit: 10, leaseMs: LEASE_MS };
      assert.deepEqual(
        ids(await own.polling.claimDue({ ...options, workerId: 'w1', feedIds: [later!, paused!] })),
        [],
      );
      assert.deepEqual(ids(await own.polling.claimDue({ ...options, workerId: 'w1' })), [due]);
      assert.deepEqual(ids(await own.polling.claimDue({ ...options, workerId: 'w2', force: true })), [later]);
      const afterRetry = { ...options, now: at(31), workerId: 'w3', feedIds: [retry!, paused!, gone!] };
      assert.deepEqual(ids(await own.polling.claimDue(afterRetry)), [retry]);
      assert.deepEqual(await own.polling.claimDue({ ...options, workerId: 'w4', feedIds: [] }), []);
    });

    it('gives concurrent workers on two connections disjoint feeds', async () => {
      const first = await fresh();
      const second = await backend.openPeer(first);
      const all = await addFeeds(first, 40);
      const claim = (store: Store, workerId: string) =>
        store.polling.claimDue({ now: at(1), limit: 5, workerId, leaseMs: LEASE_MS });
      const rounds = await Promise.all([
        ...[1, 2, 3, 4].map((n) => claim(first, `a${n}`)),
        ...[1, 2, 3, 4].map((n) => claim(second, `b${n}`)),
      ]);
      const claimed = rounds.flatMap(ids);
      assert.equal(new Set(claimed).size, claimed.length, 'a feed was claimed twice');
      // SKIP LOCKED may leave a claim short; what is left is still claimable, exactly once.
      const rest = ids(
        await second.polling.claimDue({ now: at(1), limit: 40, workerId: 'c', leaseMs: LEASE_MS }),
      );
      assert.deepEqual(
        [...claimed, ...rest].sort((x, y) => x - y),
        all,
      );
    });
  });

  describe('polls and entries', () => {
    it('inserts new entries, writes the heartbeat, patches the feed and drops the lease', async () => {
      const own = await fresh();
      const [feedId] = await addFeeds(own, 1);
      await own.polling.claimDue({ now: at(0), limit: 1, workerId: 'worker-a', leaseMs: LEASE_MS });
      const entries = [
        newEntry('a', { summary: 'S', published: '2024-03-01T10:00:00-02:00', extra: { likeOf: 'x' } }),
      ];
      const result = await own.polling.record(outcome(feedId!, { newEntries: [...entries, newEntry('b')] }));
      assert.equal(result.insertedIds.length, 2);
      assert.deepEqual(result.updatedIds, []);
      const stored = await own.entries.get(result.insertedIds[0]!);
      assert.deepEqual(stored, {
        ...entries[0],
        id: result.insertedIds[0],
        feedId,
        published: at(0),
        firstSeenAt: at(1),
        changedAt: at(1),
      });
      const feed = await own.feeds.get(feedId!);
      assert.deepEqual([feed?.status, feed?.nextCheckAt], ['ok', at(61)]);
      // The lease is gone: the feed is claimable again once due.
      assert.deepEqual(
        ids(await own.polling.claimDue({ now: at(61), limit: 1, workerId: 'w2', leaseMs: 1 })),
        [feedId],
      );
    });

    it('updates changed entries keeping first-seen, and never duplicates a guid', async () => {
      const own = await fresh();
      const [feedId] = await addFeeds(own, 1);
      const first = await own.polling.record(
        outcome(feedId!, { newEntries: [newEntry('a'), newEntry('b')] }),
      );
      const [a] = first.insertedIds;
      const second = await own.polling.record(
        outcome(feedId!, {
          now: at(30),
          newEntries: [newEntry('b'), newEntry('c')],
          changedEntries: [{ ...newEntry('a', { title: 'New title', contentHash: 'hash-a2' }), id: a! }],
        }),
      );
      assert.equal(second.insertedIds.length, 1);
      assert.deepEqual(second.updatedIds, [a]);
      const updated = await own.entries.get(a!);
      assert.deepEqual(
        [updated?.title, updated?.firstSeenAt, updated?.changedAt],
        ['New title', at(1), at(30)],
      );
      const hashes = await own.entries.hashes(feedId!, ['a', 'b', 'c', 'missing']);
      assert.deepEqual([...hashes.keys()].sort(), ['a', 'b', 'c']);
      assert.deepEqual(hashes.get('a'), { id: a, contentHash: 'hash-a2' });
      assert.equal((await own.entries.listByFeed(feedId!, 10)).length, 3);
    });

    it('stores polls written at the same time, and rolls back only the one that fails', async () => {
      const own = await fresh();
      const [a, b, c] = await addFeeds(own, 3);
      // b's heartbeat breaks NOT NULL, after its entries are written: they must go with it
      const broken = { ...outcome(b!).heartbeat, status: null as unknown as 'ok' };
      const results = await Promise.allSettled([
        own.polling.record(outcome(a!, { newEntries: [newEntry('a1'), newEntry('a2')] })),
        own.polling.record(outcome(b!, { newEntries: [newEntry('b1')], heartbeat: broken })),
        own.polling.record(outcome(c!, { newEntries: [newEntry('c1')] })),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.equal((await own.entries.listByFeed(a!, 10)).length, 2);
      assert.equal((await own.entries.listByFeed(c!, 10)).length, 1);
      assert.equal((await own.entries.listByFeed(b!, 10)).length, 0, 'nothing of the failed poll is kept');
      assert.equal((await own.heartbeats.list(b!, 10)).length, 0);
      assert.equal((await own.feeds.get(b!))?.lastCheckedAt, undefined);
      assert.equal((await own.heartbeats.list(c!, 10)).length, 1);
    });

    it('gives each of many polls written at once the ids of its own entries', async () => {
      const own = await fresh();
      const feedIds = (await addFeeds(own, 40)) as number[];
      const results = await Promise.all(
        feedIds.map((id) =>
          own.polling.record(outcome(id, { newEntries: [newEntry(`x${id}`), newEntry(`y${id}`)] })),
        ),
      );
      for (const [i, result] of results.entries()) {
        const feedId = feedIds[i] as number;
        assert.equal(result.insertedIds.length, 2);
        const guids = await Promise.all(
          result.insertedIds.map(async (id) => (await own.entries.get(id))?.guid),
        );
        assert.deepEqual(guids.sort(), [`x${feedId}`, `y${feedId}`]);
        assert.equal((await own.heartbeats.list(feedId, 5)).length, 1);
      }
    });

    it('stores every value of entries written by inserts of the same shape, one after another', async () => {
      const own = await fresh();
      const [a, b] = await addFeeds(own, 2);
      const first = [newEntry('a1', { summary: 'S1' }), newEntry('a2', { contentHtml: '<p>x</p>' })];
      const second = [newEntry('b1', { title: 'Other', urlKey: 'k' }), newEntry('b2', { published: at(7) })];
      const one = await own.polling.record(outcome(a!, { newEntries: first }));
      const two = await own.polling.record(outcome(b!, { now: at(2), newEntries: second }));
      for (const [ids, entries, feedId, seen] of [
        [one.insertedIds, first, a, at(1)],
        [two.insertedIds, second, b, at(2)],
      ] as const) {
        for (const [i, id] of ids.entries())
          assert.deepEqual(await own.entries.get(id), {
            ...entries[i],
            id,
            feedId,
            firstSeenAt: seen,
            changedAt: seen,
          });
      }
    });

    it('looks up more guids than one statement may bind', async () => {
      const own = await fresh();
      const [feedId] = await addFeeds(own, 1);
      const entries = Array.from({ length: 650 }, (_, i) => newEntry(`g${i}`));
      const { insertedIds } = await own.polling.record(outcome(feedId!, { newEntries: entries }));
      assert.equal(insertedIds.length, 650);
      const asked = [...entries.map((e) => e.guid), ...entries.map((e) => `${e.guid}-absent`)];
      assert.equal((await own.entries.hashes(feedId!, asked)).size, 650);
    });

    it('lists entries and heartbeats newest first', async () => {
      const own = await fresh();
      const [feedId] = await addFeeds(own, 1);
      const newEntries = [newEntry('old', { sortAt: at(-60) }), newEntry('new', { sortAt: at(60) })];
      await own.polling.record(outcome(feedId!, { newEntries }));
      const heartbeat = { ...outcome(feedId!).heartbeat, at: at(90), status: 'fetch_error' as const };
      await own.polling.record(
        outcome(feedId!, { now: at(90), heartbeat: { ...heartbeat, message: 'timed out' } }),
      );
      assert.deepEqual(
        (await own.entries.listByFeed(feedId!, 10)).map((e) => e.guid),
        ['new', 'old'],
      );
      const beats = await own.heartbeats.list(feedId!, 10);
      assert.deepEqual(
        beats.map((b) => [b.at, b.status, b.message]),
        [
          [at(90), 'fetch_error', 'timed out'],
          [at(1), 'ok', undefined],
        ],
      );
      assert.equal((await own.heartbeats.list(feedId!, 1)).length, 1);
    });

    it('patches every feed of polls written at once, whatever fields each sets, and only those', async () => {
      const own = await fresh();
      const [a, b, c, d, gone] = await addFeeds(own, 5);
      // c is another worker's: its lease stays; the others were this worker's
      await own.polling.claimDue({ now: at(0), limit: 5, workerId: 'worker-a', leaseMs: LEASE_MS });
      await own.feeds.update(c!, { userAgent: 'kept' });
      await own.feeds.remove(gone!);
      const ok = { status: 'ok' as const, lastCheckedAt: at(1), nextCheckAt: at(2) };
      const results = await Promise.all([
        own.polling.record(
          outcome(a!, { feedPatch: { ...ok, etag: '"a"', httpStatus: 200, trustsValidators: false } }),
        ),
        own.polling.record(
          outcome(b!, { feedPatch: { ...ok, etag: '"b"', httpStatus: 304, trustsValidators: true } }),
        ),
        own.polling.record(
          outcome(c!, {
            workerId: 'worker-b',
            feedPatch: { ...ok, etag: '"c"', httpStatus: 200, trustsValidators: false },
          }),
        ),
        own.polling.record(
          outcome(d!, {
            feedPatch: { ...ok, status: 'fetch_error', errorCount: 3, message: 'timed out', diagnostics: [] },
            newEntries: [newEntry('d1')],
          }),
        ),
        own.polling.record(
          outcome(gone!, {
            feedPatch: { ...ok, etag: '"x"', httpStatus: 200, trustsValidators: true },
            newEntries: [newEntry('x')],
          }),
        ),
      ]);
      assert.equal(results[3]?.insertedIds.length, 1);
      assert.deepEqual(results[4], { insertedIds: [], updatedIds: [] }, 'a removed feed gets nothing');
      const [fa, fb, fc, fd] = await Promise.all([a, b, c, d].map((id) => own.feeds.get(id!)));
      assert.deepEqual(
        [fa, fb, fc].map((f) => [f?.etag, f?.httpStatus, f?.trustsValidators, f?.status, f?.nextCheckAt]),
        [
          ['"a"', 200, false, 'ok', at(2)],
          ['"b"', 304, true, 'ok', at(2)],
          ['"c"', 200, false, 'ok', at(2)],
        ],
      );
      assert.equal(fc?.userAgent, 'kept', 'columns no patch names stay');
      assert.deepEqual(
        [fd?.status, fd?.errorCount, fd?.message, fd?.etag],
        ['fetch_error', 3, 'timed out', undefined],
      );
      // worker-a's leases of a, b and d went with its polls; c's stays, as worker-b polled it
      const again = await own.polling.claimDue({
        now: at(3),
        limit: 5,
        workerId: 'worker-z',
        leaseMs: LEASE_MS,
      });
      assert.deepEqual(
        ids(again).sort((x, y) => x - y),
        [a!, b!, d!].sort((x, y) => x - y),
      );
    });

    it("keeps another worker's lease and ignores a removed feed", async () => {
      const own = await fresh();
      const [feedId] = await addFeeds(own, 1);
      await own.polling.claimDue({ now: at(0), limit: 1, workerId: 'other', leaseMs: LEASE_MS });
      await own.polling.record(outcome(feedId!));
      assert.deepEqual(
        await own.polling.claimDue({ now: at(2), limit: 1, workerId: 'w', leaseMs: 1, force: true }),
        [],
      );
      await own.feeds.remove(feedId!);
      assert.deepEqual(await own.polling.record(outcome(feedId!, { newEntries: [newEntry('x')] })), {
        insertedIds: [],
        updatedIds: [],
      });
    });
  });

  describe('channels and subscriptions', () => {
    it('creates, renames, orders and deletes channels; notifications stays first', async () => {
      const own = await fresh();
      const news = await own.channels.create('News');
      const blogs = await own.channels.create('Blogs', 'blogs');
      const comics = await own.channels.create('Comics');
      assert.deepEqual([news.position, blogs.position, comics.position], [1, 2, 3]);
      await assert.rejects(own.channels.create('Again', 'blogs'), { kind: 'conflict' });
      await own.channels.rename('blogs', 'Weblogs');
      await assert.rejects(own.channels.rename('nope', 'x'), { kind: 'not_found' });
      // one name, one channel, whatever the case: names find channels (add --channel, OPML folders)
      await assert.rejects(own.channels.create(' news '), {
        kind: 'invalid',
        message: /channel named News already/,
      });
      await assert.rejects(own.channels.rename(comics.uid, 'WEBLOGS'), { kind: 'invalid' });
      await own.channels.rename(comics.uid, 'COMICS');
      await own.channels.rename(comics.uid, 'Comics');
      // the notifications channel is Microsub's alone: the apps may have a folder of that name
      const folder = await own.channels.create('notifications');
      await own.channels.delete(folder.uid);
      // another person's names are theirs
      const now = new Date().toISOString();
      await own.users.add({ name: 'ann', isAdmin: true }, now);
      const bob = await own.users.add({ name: 'bob', isAdmin: false }, now);
      await own.forUser(bob.id).channels.create('News');
      // the channels named take the places they held, in the order given; the others stay (Microsub spec)
      await own.channels.order([comics.uid, 'unknown', news.uid]);
      const uids = async () => (await own.channels.list()).map((c) => c.uid);
      assert.deepEqual(await uids(), ['notifications', comics.uid, 'blogs', news.uid]);
      // two neighbours swap: a client's "move down"
      await own.channels.order(['blogs', comics.uid]);
      assert.deepEqual(await uids(), ['notifications', 'blogs', comics.uid, news.uid]);
      // the whole list sets the whole order
      await own.channels.order([news.uid, comics.uid, 'blogs']);
      assert.deepEqual(await uids(), ['notifications', news.uid, comics.uid, 'blogs']);
      assert.equal((await own.channels.get('blogs'))?.name, 'Weblogs');
      await own.channels.delete(news.uid);
      await own.channels.delete(news.uid);
      await assert.rejects(own.channels.delete('notifications'), { kind: 'invalid' });
      assert.deepEqual(await uids(), ['notifications', comics.uid, 'blogs']);
    });

    it('subscribes once per channel and feed, lists and unsubscribes', async () => {
      const own = await fresh();
      const f1 = (await own.feeds.add('https://example.org/feed-0.xml', at(0))).id;
      const f2 = (await own.feeds.add('https://example.org/feed-1.xml', at(0))).id;
      const news = await own.channels.create('News');
      const blogs = await own.channels.create('Blogs');
      const sub = await own.channels.subscribe(news.id, f1, at(0));
      assert.equal((await own.channels.subscribe(news.id, f1, at(9))).id, sub.id);
      await own.channels.subscribe(blogs.id, f1, at(1));
      // a feed followed again is no longer unfollowed, whoever subscribes it (follow, OPML, the apps)
      await own.feeds.update(f2, { unfollowedAt: at(1) });
      await own.channels.subscribe(news.id, f2, at(2));
      assert.equal((await own.feeds.get(f2))?.unfollowedAt, undefined);
      const inNews = await own.channels.listSubscriptions(news.id);
      assert.deepEqual(
        inNews.map((s) => [s.feedId, s.feed.url, s.createdAt]),
        [
          [f1, 'https://example.org/feed-0.xml', at(0)],
          [f2, 'https://example.org/feed-1.xml', at(2)],
        ],
      );
      assert.equal((await own.channels.listSubscriptions()).length, 3);
      await own.feeds.update(f2, { title: 'Two' });
      // the lean listing of the reading pages: same subscriptions, same order, title and URL only
      await own.icons.save(f2, { contentType: 'image/png', bytes: Uint8Array.from([1, 2]) }, at(3));
      await own.icons.save(f1, undefined, at(3));
      assert.deepEqual(await own.channels.listSubscriptionRefs(), [
        { channelId: news.id, feedId: f1, url: 'https://example.org/feed-0.xml', hasIcon: false, unread: 0 },
        {
          channelId: news.id,
          feedId: f2,
          url: 'https://example.org/feed-1.xml',
          title: 'Two',
          hasIcon: true,
          unread: 0,
        },
        { channelId: blogs.id, feedId: f1, url: 'https://example.org/feed-0.xml', hasIcon: false, unread: 0 },
      ]);
      // one channel's, or some feeds' (the sidebar past 200 feeds, All unread's page)
      assert.deepEqual(
        (await own.channels.listSubscriptionRefs({ channelId: blogs.id })).map((s) => [
          s.channelId,
          s.feedId,
        ]),
        [[blogs.id, f1]],
      );
      assert.deepEqual(
        (await own.channels.listSubscriptionRefs({ feedIds: [f1, f1] })).map((s) => [s.channelId, s.feedId]),
        [
          [news.id, f1],
          [blogs.id, f1],
        ],
      );
      assert.deepEqual(await own.channels.listSubscriptionRefs({ feedIds: [] }), []);
      // how many feeds each channel follows: news two, blogs one, every other channel none
      assert.deepEqual(
        (await own.reading.channelSummaries())
          .map((ch) => [ch.id, ch.followed])
          .sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0)),
        (await own.channels.list())
          .map((ch) => [ch.id, ch.id === news.id ? 2 : ch.id === blogs.id ? 1 : 0])
          .sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0)),
      );
      await own.channels.unsubscribe(news.id, f1);
      assert.deepEqual(ids(await own.channels.listSubscriptions(news.id)).length, 1);
      await own.channels.delete(blogs.uid);
      assert.deepEqual(
        (await own.channels.listSubscriptions()).map((s) => s.feedId),
        [f2],
      );
      assert.equal((await own.feeds.get(f1))?.id, f1);
    });
  });
}

function skipUnlessPostgres(backend: StoreBackend): string | false {
  return backend.name === 'postgres'
    ? false
    : 'concurrent migrations are a PostgreSQL concern (SQLite: BEGIN IMMEDIATE)';
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => storeSuite(backend));
}
