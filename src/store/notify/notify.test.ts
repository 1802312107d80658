import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  addFollowedFeed,
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';
import { type FeedEvent, NOTIFICATIONS_UID, type PollHealth, type PollOutcome } from '../types.js';
import { NO_ALERTS, stepFeedAlerts } from './feed-alerts.js';

/** A poll's health as the poller reports it: failed, fine, gone or moved. */
function health(feedId: number, kind: 'failed' | 'ok' | 'gone', extra: Partial<PollHealth> = {}): PollHealth {
  return {
    failed: kind === 'failed',
    gone: kind === 'gone',
    alertAfter: 3,
    report: {
      feed: { id: feedId, url: 'https://example.org/feed', title: 'Example', siteUrl: null },
      status: kind === 'failed' ? 'parse_error' : kind === 'gone' ? 'gone' : 'ok',
      message: kind === 'failed' ? 'xml: unclosed tag <item> (line 3:5)' : '2 entries (rss20)',
      ...(kind === 'failed'
        ? { diagnostic: { code: 'xml.not-well-formed', line: 3, column: 5, excerpt: '<item><title>x' } }
        : {}),
    },
    ...extra,
  };
}

/** A poll of the feed at minute `minute` that reports this health. */
function poll(
  feedId: number,
  minute: number,
  kind: 'failed' | 'ok' | 'gone',
  extra: Partial<PollHealth> = {},
) {
  const outcome: PollOutcome = testPoll(feedId, [], at(minute), { health: health(feedId, kind, extra) });
  return outcome;
}

describe('stepFeedAlerts', () => {
  it('says feed.failing once at the third failure, then nothing, then feed.recovered once', () => {
    let state = NO_ALERTS;
    const types: string[][] = [];
    const kinds = ['failed', 'failed', 'failed', 'failed', 'failed', 'ok', 'ok'] as const;
    for (const [minute, kind] of kinds.entries()) {
      const step = stepFeedAlerts(state, health(1, kind), at(minute));
      types.push(step.events.map((event) => event.type));
      state = step.state;
    }
    assert.deepEqual(types, [[], [], ['feed.failing'], [], [], ['feed.recovered'], []]);
  });

  it('gives the run its first failure and count, and recovers with them', () => {
    let state = NO_ALERTS;
    const events: FeedEvent[] = [];
    for (const [minute, kind] of (['ok', 'failed', 'failed', 'failed', 'failed', 'ok'] as const).entries()) {
      const step = stepFeedAlerts(state, health(1, kind), at(minute));
      events.push(...step.events);
      state = step.state;
    }
    assert.deepEqual(
      events.map((event) => [event.type, event.at, event.since, event.failures]),
      [
        ['feed.failing', at(3), at(1), 3],
        ['feed.recovered', at(5), at(1), 4],
      ],
    );
    assert.deepEqual(Object.keys(events[0] as FeedEvent), [
      'type',
      'at',
      'feed',
      'status',
      'since',
      'failures',
      'message',
      'diagnostic',
    ]);
  });

  it('never tells the password or token of a feed URL: alerts leave the instance', () => {
    const secret = 'https://bob:Pa55word@example.org/feed?token=t0ps3cret';
    const withSecret = (kind: 'failed' | 'ok', movedTo?: string): PollHealth => {
      const base = health(1, kind);
      return {
        ...base,
        report: {
          ...base.report,
          feed: { ...base.report.feed, url: secret },
          message: `cannot reach ${secret}: connect ECONNREFUSED`,
        },
        ...(movedTo ? { movedTo } : {}),
      };
    };
    let state = NO_ALERTS;
    const events: FeedEvent[] = [];
    for (const [minute, kind] of (['failed', 'failed', 'failed'] as const).entries()) {
      const step = stepFeedAlerts(state, withSecret(kind), at(minute));
      events.push(...step.events);
      state = step.state;
    }
    events.push(...stepFeedAlerts(state, withSecret('ok', 'https://bob:N3w@example.net/feed'), at(9)).events);
    assert.deepEqual(
      events.map((event) => event.type),
      ['feed.failing', 'feed.recovered', 'feed.moved'],
    );
    const told = JSON.stringify(events);
    assert.doesNotMatch(told, /Pa55word|t0ps3cret|N3w/);
    assert.equal(events[0]?.feed.url, 'https://bob:***@example.org/feed?token=***');
    assert.equal(events[2]?.newUrl, 'https://bob:***@example.net/feed');
  });

  it('sends nothing for a run of failures shorter than the threshold', () => {
    let state = NO_ALERTS;
    for (const [minute, kind] of (['failed', 'failed', 'ok', 'failed', 'failed', 'ok'] as const).entries()) {
      const step = stepFeedAlerts(state, health(1, kind), at(minute));
      assert.deepEqual(step.events, []);
      state = step.state;
    }
  });

  it('says feed.silent once per quiet spell, a failure within it included', () => {
    const quiet = {
      silent: { since: at(-5000), message: 'no new entry for 4 days; it usually posts every 1 day' },
    };
    const steps: [Partial<PollHealth>, 'ok' | 'failed'][] = [
      [{}, 'ok'],
      [quiet, 'ok'],
      [quiet, 'ok'],
      [{}, 'failed'],
      [quiet, 'ok'],
      [{}, 'ok'],
      [quiet, 'ok'],
    ];
    let state = NO_ALERTS;
    const said: string[][] = [];
    for (const [minute, [extra, kind]] of steps.entries()) {
      const step = stepFeedAlerts(state, health(1, kind, extra), at(minute));
      said.push(
        step.events.map((event) => `${event.type} ${event.since === at(-5000) ? 'since' : ''}`.trim()),
      );
      state = step.state;
    }
    assert.deepEqual(said, [[], ['feed.silent since'], [], [], [], [], ['feed.silent since']]);
    assert.deepEqual(state.failures, 0);
  });

  it('says feed.gone once, and feed.moved with the new URL each time', () => {
    const gone = stepFeedAlerts(NO_ALERTS, health(1, 'gone'), at(0));
    assert.deepEqual(
      gone.events.map((event) => event.type),
      ['feed.gone'],
    );
    assert.deepEqual(stepFeedAlerts(gone.state, health(1, 'gone'), at(1)).events, []);
    const moved = stepFeedAlerts(NO_ALERTS, health(1, 'ok', { movedTo: 'https://example.net/feed' }), at(0));
    assert.deepEqual(
      moved.events.map((event) => [event.type, event.feed.url, event.newUrl]),
      [['feed.moved', 'https://example.org/feed', 'https://example.net/feed']],
    );
  });
});

function notifySuite(backend: StoreBackend) {
  after(() => backend.cleanup());

  /** A store with a second user, Bo, and a feed both users follow. */
  async function twoFollowers(): Promise<{ store: Store; bo: Store; feedId: number }> {
    const store = await backend.open();
    await store.users.add({ name: 'ann', isAdmin: true }, at(0));
    const boUser = await store.users.add({ name: 'bo', isAdmin: false }, at(0));
    const bo = store.forUser(boUser.id);
    const feed = await addFollowedFeed(store, 'https://example.org/feed', at(0));
    await addFollowedFeed(bo, 'https://example.org/feed', at(0));
    return { store, bo, feedId: feed.id };
  }

  it("keeps each user's destinations to that user", async () => {
    const { store, bo } = await twoFollowers();
    const hook = await store.notify.add(
      { kind: 'webhook', target: 'https://hooks.example/a', secret: 's3', events: ['feed.failing'] },
      at(1),
    );
    assert.deepEqual(hook, {
      id: hook.id,
      userId: store.userId,
      kind: 'webhook',
      target: 'https://hooks.example/a',
      secret: 's3',
      events: ['feed.failing'],
      createdAt: at(1),
    });
    const mail = await bo.notify.add({ kind: 'email', target: 'bo@example.org', digest: 'daily' }, at(2));
    assert.equal(mail.events, undefined);
    assert.deepEqual(
      (await store.notify.list()).map((d) => d.id),
      [hook.id],
    );
    assert.equal(await bo.notify.get(hook.id), undefined);
    assert.equal(await bo.notify.remove(hook.id), false);
    assert.deepEqual(await store.notify.get(hook.id), hook);
    await assert.rejects(
      bo.notify.enqueue([{ destinationId: hook.id, eventType: 'test', payload: '{}' }], at(3)),
      /does not have/,
    );
    assert.equal(await store.notify.remove(hook.id), true);
    assert.deepEqual(await store.notify.list(), []);
  });

  it('queues one feed.failing, then one feed.recovered, for each follower, with the poll', async () => {
    const { store, bo, feedId } = await twoFollowers();
    const annHook = await store.notify.add({ kind: 'webhook', target: 'https://hooks.example/a' }, at(0));
    // Bo takes only recoveries: his filter drops the failing alert
    const boHook = await bo.notify.add(
      { kind: 'ntfy', target: 'https://ntfy.example/t', events: ['feed.recovered'] },
      at(0),
    );
    for (let minute = 1; minute <= 5; minute++) await store.polling.record(poll(feedId, minute, 'failed'));
    await store.polling.record(poll(feedId, 6, 'ok'));
    await store.polling.record(poll(feedId, 7, 'ok'));
    const ann = await store.notify.messages();
    assert.deepEqual(
      ann.map((m) => [m.destinationId, m.eventType, m.createdAt]),
      [
        [annHook.id, 'feed.failing', at(3)],
        [annHook.id, 'feed.recovered', at(6)],
      ],
    );
    const failing = JSON.parse(ann[0]?.payload ?? '') as FeedEvent;
    assert.deepEqual(failing.diagnostic, {
      code: 'xml.not-well-formed',
      line: 3,
      column: 5,
      excerpt: '<item><title>x',
    });
    assert.equal(failing.since, at(1));
    assert.deepEqual(
      (await bo.notify.messages()).map((m) => [m.destinationId, m.eventType]),
      [[boHook.id, 'feed.recovered']],
    );
  });

  it("puts one entry a change into each follower's notifications channel, and nowhere else", async () => {
    const { store, bo, feedId } = await twoFollowers();
    // bo paused the feed: he hears nothing of it
    assert.equal(await bo.channels.setFollowerSettings(feedId, { paused: true }), true);
    for (let minute = 1; minute <= 5; minute++) await store.polling.record(poll(feedId, minute, 'failed'));
    await store.polling.record(poll(feedId, 6, 'ok'));
    await store.polling.record(poll(feedId, 7, 'ok'));
    const channels = await store.channels.list();
    const box = channels.find((c) => c.uid === NOTIFICATIONS_UID);
    const test = channels.find((c) => c.name === 'Test');
    assert.ok(box && test);
    const page = await store.reading.timeline({ channelId: box.id, limit: 10 });
    assert.deepEqual(
      page.entries.map((e) => [e.title, e.sortAt, e.isRead, e.feed.id]),
      [
        ['Feed recovered: Example', at(6), false, feedId],
        ['Feed failing: Example', at(3), false, feedId],
      ],
    );
    assert.match(
      page.entries[1]?.contentText ?? '',
      /^xml: unclosed tag <item> \(line 3:5\)\nline 3, column 5 \(xml\.not-well-formed\)\n<item><title>x\n3 failed polls in a row since /,
    );
    assert.deepEqual((await store.reading.timeline({ channelId: test.id, limit: 10 })).entries, []);
    assert.equal((await store.reading.unreadCounts()).find((c) => c.channelId === box.id)?.unread, 2);
    const boBox = (await bo.channels.list()).find((c) => c.uid === NOTIFICATIONS_UID);
    assert.ok(boBox);
    assert.deepEqual((await bo.reading.timeline({ channelId: boBox.id, limit: 10 })).entries, []);
    // the apps (Google Reader, Fever) never see an alert as an item of its feed
    const alertIds = page.entries.map((e) => e.id);
    assert.deepEqual(
      (await store.sync.ids({})).filter((id) => alertIds.includes(id)),
      [],
    );
    assert.deepEqual(await store.sync.unreadCounts(), []);
    // following the feed in another channel later does not bring the alerts along
    const other = await store.channels.create('Other');
    await store.channels.subscribe(other.id, feedId, at(8));
    assert.deepEqual((await store.reading.timeline({ channelId: other.id, limit: 10 })).entries, []);
    const report = await store.reading.checkState({ repair: false });
    assert.deepEqual(report, { missingRows: 0, strayRows: 0, wrongRows: 0, countDrift: [], repaired: false });
  });

  it('queues nothing for a user who paused the feed, nor for polls without health', async () => {
    const { store, bo, feedId } = await twoFollowers();
    await bo.notify.add({ kind: 'webhook', target: 'https://hooks.example/b' }, at(0));
    assert.equal(await bo.channels.setFollowerSettings(feedId, { paused: true }), true);
    for (let minute = 1; minute <= 3; minute++) await store.polling.record(poll(feedId, minute, 'failed'));
    await store.polling.record(testPoll(feedId, [], at(4)));
    assert.deepEqual(await bo.notify.messages(), []);
  });

  it('queues nothing when the poll cannot be stored (the feed was removed meanwhile)', async () => {
    const { store, feedId } = await twoFollowers();
    await store.notify.add({ kind: 'webhook', target: 'https://hooks.example/a' }, at(0));
    await store.polling.record(poll(feedId, 1, 'gone'));
    assert.equal((await store.notify.messages()).length, 1);
    await store.feeds.remove(feedId);
    await store.polling.record(poll(feedId, 2, 'failed', { alertAfter: 1 }));
    assert.equal((await store.notify.messages()).length, 1);
  });

  it('claims a due message once, sends it, and retries a failure later', async () => {
    const store = await backend.open();
    const hook = await store.notify.add({ kind: 'webhook', target: 'https://hooks.example/a' }, at(0));
    await store.notify.enqueue(
      [
        { destinationId: hook.id, eventType: 'test', payload: '{"n":1}' },
        { destinationId: hook.id, eventType: 'test', payload: '{"n":2}' },
      ],
      at(1),
    );
    const claim = { now: at(1), workerId: 'a', leaseMs: 60_000, limit: 10 };
    const items = await store.notify.claimDue(claim);
    assert.deepEqual(
      items.map((item) => [item.payload, item.attempts, item.destination.id]),
      [
        ['{"n":1}', 0, hook.id],
        ['{"n":2}', 0, hook.id],
      ],
    );
    // claimed: nobody else gets them while the claim holds
    assert.deepEqual(await store.notify.claimDue({ ...claim, workerId: 'b' }), []);
    const [first, second] = items as [(typeof items)[0], (typeof items)[0]];
    assert.equal(await store.notify.markSent(first.id, 'a', at(2)), true);
    assert.equal(await store.notify.markSent(first.id, 'a', at(2)), false);
    assert.equal(await store.notify.markFailed(second.id, 'b', at(2), 'not mine', at(3)), false);
    assert.equal(await store.notify.markFailed(second.id, 'a', at(2), 'HTTP 503', at(3)), true);
    let destination = await store.notify.get(hook.id);
    assert.equal(destination?.lastOkAt, at(2));
    assert.equal(destination?.failingSince, at(2));
    assert.equal(destination?.lastError, 'HTTP 503');
    assert.equal(await store.notify.nextDueTime(), at(3));
    assert.deepEqual(await store.notify.claimDue({ ...claim, now: at(2.5) }), []);
    const retry = await store.notify.claimDue({ ...claim, now: at(3) });
    assert.deepEqual(
      retry.map((item) => [item.id, item.attempts]),
      [[second.id, 1]],
    );
    // given up: kept, marked failed, never claimed again
    assert.equal(await store.notify.markFailed(second.id, 'a', at(4), 'HTTP 503', undefined), true);
    assert.deepEqual(await store.notify.claimDue({ ...claim, now: at(60 * 48) }), []);
    assert.deepEqual(await store.notify.counts(hook.id), { pending: 0, sent: 1, failed: 1 });
    assert.equal(await store.notify.nextDueTime(), undefined);
    await store.notify.recordAttempt(hook.id, at(5));
    destination = await store.notify.get(hook.id);
    assert.equal(destination?.failingSince, undefined);
    assert.equal(destination?.lastError, 'HTTP 503');
    // done messages go after a while; waiting ones stay whatever their age
    await store.notify.enqueue([{ destinationId: hook.id, eventType: 'test', payload: '{}' }], at(0));
    assert.equal(await store.notify.pruneDone(at(1)), 0);
    assert.equal(await store.notify.pruneDone(at(2)), 2);
    assert.deepEqual(await store.notify.counts(hook.id), { pending: 1, sent: 0, failed: 0 });
    await store.notify.pruneDone(at(10_000));
  });

  it('gives a lapsed claim to the next sender', async () => {
    const store = await backend.open();
    const hook = await store.notify.add({ kind: 'webhook', target: 'https://hooks.example/a' }, at(0));
    await store.notify.enqueue([{ destinationId: hook.id, eventType: 'test', payload: '{}' }], at(1));
    const [item] = await store.notify.claimDue({ now: at(1), workerId: 'a', leaseMs: 60_000, limit: 1 });
    assert.ok(item);
    const again = await store.notify.claimDue({ now: at(2), workerId: 'b', leaseMs: 60_000, limit: 1 });
    assert.deepEqual(
      again.map((row) => row.id),
      [item.id],
    );
    // the first sender's claim is gone: its late mark does not count
    assert.equal(await store.notify.markSent(item.id, 'a', at(2)), false);
    assert.equal(await store.notify.markSent(item.id, 'b', at(2)), true);
  });

  it('removes destinations and their messages with their user', async () => {
    const { store, bo, feedId } = await twoFollowers();
    await bo.notify.add({ kind: 'webhook', target: 'https://hooks.example/b' }, at(0));
    await store.polling.record(poll(feedId, 1, 'gone'));
    assert.equal((await bo.notify.messages()).length, 1);
    await store.users.remove(bo.userId, at(2));
    assert.deepEqual(await bo.notify.list(), []);
    assert.deepEqual(await store.notify.claimDue({ now: at(3), workerId: 'a', leaseMs: 1000, limit: 9 }), []);
  });

  it('queues a daily digest of the broken feeds a user follows, once a day, by one process', async () => {
    const { store, bo, feedId } = await twoFollowers();
    const quiet = await addFollowedFeed(store, 'https://example.org/fine', at(0));
    await store.feeds.update(feedId, { status: 'parse_error', message: 'xml: broken (line 3:5)' });
    await store.feeds.update(quiet.id, { status: 'ok' });
    const mail = await store.notify.add({ kind: 'email', target: 'ann@example.org', digest: 'daily' }, at(0));
    // bo follows the broken feed too, but paused it: his digest would be empty, so none is sent
    await bo.notify.add({ kind: 'email', target: 'bo@example.org', digest: 'daily' }, at(0));
    await bo.channels.setFollowerSettings(feedId, { paused: true });
    await store.notify.add({ kind: 'email', target: 'plain@example.org' }, at(0));
    assert.equal(await store.notify.queueDigests(at(60)), 0);
    const peer = await backend.openPeer(store);
    const day = at(24 * 60 + 1);
    // two processes at once on PostgreSQL; one after the other on SQLite, whose connections in one
    // process block the thread while they wait for the write lock
    const queue = (s: Store) => s.notify.queueDigests(day, 'https://news.example.org');
    const counts =
      backend.name === 'postgres'
        ? await Promise.all([queue(store), queue(peer)])
        : [await queue(store), await queue(peer)];
    assert.equal(
      counts.reduce((sum, n) => sum + n, 0),
      1,
    );
    assert.equal(await store.notify.queueDigests(at(25 * 60)), 0);
    const [digest] = await store.notify.messages(mail.id);
    assert.equal(digest?.eventType, 'digest');
    assert.deepEqual(JSON.parse(digest?.payload ?? '{}'), {
      type: 'digest',
      at: day,
      period: 'daily',
      feeds: [
        {
          id: feedId,
          url: 'https://example.org/feed',
          title: null,
          siteUrl: null,
          status: 'parse_error',
          message: 'xml: broken (line 3:5)',
          since: null,
          failures: 0,
          link: `https://news.example.org/feeds/${feedId}`,
        },
      ],
    });
    assert.deepEqual(await bo.notify.messages(), []);
    assert.equal(await store.notify.queueDigests(at(48 * 60 + 2)), 1);
  });

  it('gives each message to one of two senders claiming at once', async () => {
    const store = await backend.open();
    const peer = await backend.openPeer(store);
    const hook = await store.notify.add({ kind: 'webhook', target: 'https://hooks.example/a' }, at(0));
    const messages = Array.from({ length: 40 }, (_, n) => ({
      destinationId: hook.id,
      eventType: 'test',
      payload: JSON.stringify({ n }),
    }));
    await store.notify.enqueue(messages, at(1));
    const claims = await Promise.all(
      [store, peer, store, peer].map((s, n) =>
        s.notify.claimDue({ now: at(1), workerId: `w${n}`, leaseMs: 60_000, limit: 15 }),
      ),
    );
    const ids = claims.flat().map((item) => item.id);
    assert.equal(ids.length, 40);
    assert.equal(new Set(ids).size, 40);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => notifySuite(backend));
}
