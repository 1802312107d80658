import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  addFollowedFeed,
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';
import { NOTIFICATIONS_UID } from '../types.js';
import type { EntryMatchedEvent } from './types.js';

function rulesSuite(backend: StoreBackend) {
  after(() => backend.cleanup());

  /** A store with ann and bo, both following one feed; ann's in her channel "Test". */
  async function twoFollowers() {
    const store = await backend.open();
    await store.users.add({ name: 'ann', isAdmin: true }, at(0));
    const boUser = await store.users.add({ name: 'bo', isAdmin: false }, at(0));
    const bo = store.forUser(boUser.id);
    const feed = await addFollowedFeed(store, 'https://example.org/feed', at(0));
    await addFollowedFeed(bo, 'https://example.org/feed', at(0));
    const channel = (await store.channels.list()).find((c) => c.name === 'Test');
    assert.ok(channel);
    return { store, bo, feedId: feed.id, channelId: channel.id };
  }

  /** Stores these entries as one poll of the feed at `minute`; returns their ids by guid. */
  async function poll(store: Store, feedId: number, minute: number, entries: [string, string][]) {
    await store.polling.record(
      testPoll(
        feedId,
        entries.map(([guid, title]) => testEntry(guid, { title, sortAt: at(minute) })),
        at(minute),
      ),
    );
    const stored = await store.entries.listByFeed(feedId, 100);
    return new Map(stored.map((entry) => [entry.guid, entry.id]));
  }

  async function timeline(store: Store, channelId: number) {
    const page = await store.reading.timeline({ channelId, limit: 100 });
    // by guid: entries of one poll share their sort time
    return page.entries
      .map((entry) => [entry.guid, entry.isRead])
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
  }

  async function assertCountsKept(store: Store) {
    const report = await store.reading.checkState({ repair: false });
    assert.deepEqual(report, { missingRows: 0, strayRows: 0, wrongRows: 0, countDrift: [], repaired: false });
  }

  it("keeps each user's rules to that user and refuses a query with no word", async () => {
    const { store, bo, channelId } = await twoFollowers();
    const rule = await store.rules.add({ query: ' "red hat" -linux ', channelId, action: 'read' }, at(1));
    assert.deepEqual(rule, {
      id: rule.id,
      userId: store.userId,
      query: '"red hat" -linux',
      channelId,
      action: 'read',
      createdAt: at(1),
    });
    assert.deepEqual(await store.rules.list(), [rule]);
    assert.deepEqual(await bo.rules.list(), []);
    assert.equal(await bo.rules.get(rule.id), undefined);
    assert.equal(await bo.rules.remove(rule.id), false);
    await assert.rejects(bo.rules.add({ query: 'x', channelId, action: 'save' }, at(1)), /no such channel/);
    await assert.rejects(store.rules.add({ query: ' - "" ', action: 'save' }, at(1)), /at least one word/);
    assert.equal(await store.rules.remove(rule.id), true);
    assert.deepEqual(await store.rules.list(), []);
  });

  it('acts on new entries only: read, as a search finds them, and the counts stay kept', async () => {
    const { store, bo, feedId, channelId } = await twoFollowers();
    await poll(store, feedId, 1, [['old', 'Kubernetes at home']]);
    await store.rules.add({ query: 'kubernetes -helm', action: 'read' }, at(2));
    const ids = await poll(store, feedId, 3, [
      ['new', 'More Kubernetes notes'],
      ['helm', 'Kubernetes and Helm'],
      ['other', 'Gardening'],
    ]);
    assert.deepEqual(await timeline(store, channelId), [
      ['helm', false],
      ['new', true],
      ['old', false],
      ['other', false],
    ]);
    // bo has no rule: his reading is his own
    const boChannel = (await bo.channels.list()).find((c) => c.name === 'Test');
    assert.ok(boChannel);
    assert.equal((await timeline(bo, boChannel.id)).filter(([, read]) => read).length, 0);
    const counts = await store.reading.unreadCounts();
    assert.equal(counts.find((c) => c.channelId === channelId)?.unread, 3);
    // the same query as a search finds what the rule matched among the new entries
    const found = await store.reading.search({ query: 'kubernetes -helm', limit: 10 });
    assert.deepEqual(found.entries.map((e) => e.id).sort(), [ids.get('new'), ids.get('old')].sort());
    // a read rule tells no one: nothing reaches the notifications channel
    const box = (await store.channels.list()).find((c) => c.uid === NOTIFICATIONS_UID);
    assert.ok(box);
    assert.deepEqual(await timeline(store, box.id), []);
    await assertCountsKept(store);
    await assertCountsKept(bo);
  });

  it('saves, hides (never shown, not counted) and notifies, each only in its scope', async () => {
    const { store, bo, feedId, channelId } = await twoFollowers();
    const other = await store.channels.create('Other');
    const second = await store.feeds.add('https://example.net/feed', at(0));
    await store.channels.subscribe(other.id, second.id, at(0));
    const hook = await store.notify.add({ kind: 'webhook', target: 'https://hooks.example/a' }, at(0));
    await store.notify.add(
      { kind: 'ntfy', target: 'https://ntfy.example/t', events: ['feed.failing'] },
      at(0),
    );
    await store.rules.add({ query: 'keep', action: 'save' }, at(1));
    await store.rules.add({ query: 'spam', channelId, action: 'hide' }, at(1));
    await store.rules.add({ query: '"launch day"', feedId, action: 'notify' }, at(1));
    const ids = await poll(store, feedId, 2, [
      ['k', 'Keep this'],
      ['s', 'Spam offer'],
      ['l', 'Launch day is here'],
    ]);
    // in the other channel and feed the hide and notify rules do not reach
    const otherIds = await poll(store, second.id, 2, [
      ['s2', 'Spam elsewhere'],
      ['l2', 'Launch day elsewhere'],
    ]);
    assert.deepEqual(
      (await timeline(store, channelId)).map(([guid]) => guid),
      ['k', 'l'],
    );
    assert.deepEqual((await timeline(store, other.id)).map(([guid]) => guid).sort(), ['l2', 's2']);
    const saved = await store.reading.savedEntries({ limit: 10 });
    assert.deepEqual(
      saved.entries.map((e) => e.id),
      [ids.get('k')],
    );
    const unread = await store.reading.unreadCounts();
    assert.equal(unread.find((c) => c.channelId === channelId)?.unread, 2);
    // the apps never list the hidden entry either; bo, who follows the feed too, has no rule and sees it
    const inApps = await store.sync.ids({});
    assert.ok(inApps.includes(ids.get('k') as number) && !inApps.includes(ids.get('s') as number));
    assert.ok((await bo.sync.ids({})).includes(ids.get('s') as number));
    // notify: into the notifications channel, and entry.matched to the destination that takes it
    const notifications = (await store.channels.list()).find((c) => c.uid === NOTIFICATIONS_UID);
    assert.ok(notifications);
    assert.deepEqual(await timeline(store, notifications.id), [['l', false]]);
    assert.equal(unread.find((c) => c.channelId === notifications.id)?.unread, 1);
    const messages = await store.notify.messages();
    assert.deepEqual(
      messages.map((m) => [m.destinationId, m.eventType]),
      [[hook.id, 'entry.matched']],
    );
    const event = JSON.parse(messages[0]?.payload ?? '') as EntryMatchedEvent;
    assert.deepEqual(event.entry, {
      id: ids.get('l'),
      title: 'Launch day is here',
      url: 'https://example.org/l',
      published: null,
      feed: { id: feedId, url: 'https://example.org/feed', title: null, siteUrl: null },
    });
    assert.equal(event.rule.query, '"launch day"');
    assert.equal(event.at, at(2));
    assert.equal(otherIds.size, 2);
    await assertCountsKept(store);
    // reading it in the notifications channel is counted there; unfollowing the feed there keeps it
    await store.reading.markRead(notifications.id, [ids.get('l') as number], true, at(3));
    await assertCountsKept(store);
    await store.channels.subscribe(notifications.id, feedId, at(4));
    await store.channels.unsubscribe(notifications.id, feedId);
    assert.deepEqual(await timeline(store, notifications.id), [['l', true]]);
    await assertCountsKept(store);
  });

  it('changes only what arrives later when a rule is removed', async () => {
    const { store, feedId, channelId } = await twoFollowers();
    const rule = await store.rules.add({ query: 'daily', action: 'read' }, at(1));
    await poll(store, feedId, 2, [['a', 'Daily one']]);
    await store.rules.remove(rule.id);
    await poll(store, feedId, 3, [['b', 'Daily two']]);
    assert.deepEqual(await timeline(store, channelId), [
      ['a', true],
      ['b', false],
    ]);
    await assertCountsKept(store);
  });
}

for (const backend of storeBackends()) {
  describe(`rules on ${backend.name}`, { skip: backend.skip }, () => rulesSuite(backend));
}
