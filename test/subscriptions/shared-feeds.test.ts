// Issue 24: a feed two users follow is one feed, fetched once a round for both; each has their own
// channels, title, pause, read and saved state; it is polled while anyone has it unpaused and stops being
// polled when the last follower leaves; retention keeps what either has unread or saved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import {
  feedAsSeen,
  follow,
  type SubscriptionDeps,
  unfollow,
  updateFeedSettings,
} from '../../src/subscriptions/index.js';
import { testClock } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { hits, withSite } from './fixtures.js';

const clock = testClock();

for (const backend of storeBackends()) {
  describe(`shared feeds (${backend.name})`, { skip: backend.skip }, () => {
    const t = withSite(backend, clock);
    let ann: SubscriptionDeps;
    let bob: SubscriptionDeps;
    const run = async (deps: SubscriptionDeps) => {
      clock.advance(60_000);
      return pollOnce(deps.poll, { force: true });
    };

    it('fetches a feed once for two followers, each with their own state', async () => {
      const { store } = t.deps;
      const annUser = await store.users.add({ name: 'ann', isAdmin: true }, clock.now().toISOString());
      const bobUser = await store.users.add({ name: 'bob', isAdmin: false }, clock.now().toISOString());
      ann = { ...t.deps, store: store.forUser(annUser.id) };
      bob = { ...t.deps, store: store.forUser(bobUser.id) };
      const url = `${t.site.url}/a.xml`;
      const first = await follow(ann, { url, channel: 'News' });
      const fetched = hits(t.site, '/a.xml');
      assert.ok(fetched > 0, "ann's follow fetched it");
      const second = await follow(bob, { url, channel: 'Reading' });
      assert.ok(first.kind === 'followed' && second.kind === 'followed');
      assert.equal(first.feed.id, second.feed.id, 'one feed for both');
      assert.equal(hits(t.site, '/a.xml'), fetched, "bob's follow did not fetch it again");
      await run(ann);
      assert.equal(hits(t.site, '/a.xml'), fetched + 1, 'one request a round for both followers');

      // each sees only their own channel, and its entries
      assert.deepEqual(
        (await ann.store.channels.list()).map((c) => c.name),
        ['Notifications', 'News'],
      );
      assert.deepEqual(
        (await bob.store.channels.list()).map((c) => c.name),
        ['Notifications', 'Reading'],
      );
      const annNews = await ann.store.channels.get((await ann.store.channels.list())[1]?.uid ?? '');
      const bobReading = await bob.store.channels.get((await bob.store.channels.list())[1]?.uid ?? '');
      assert.ok(annNews && bobReading);
      assert.equal(await bob.store.channels.get(annNews.uid), undefined, "ann's channel is not bob's");
      const annPage = await ann.store.reading.timeline({ channelId: annNews.id, limit: 10 });
      assert.equal(annPage.entries.length, 2);
      const [newest] = annPage.entries;
      assert.ok(newest);
      assert.deepEqual(
        await bob.store.reading.entriesById(annNews.id, [newest.id]),
        [],
        "bob reads nothing through ann's channel",
      );

      // read and saved are each their own
      await ann.store.reading.markRead(annNews.id, [newest.id], true, clock.now().toISOString());
      await ann.store.sync.setSaved([newest.id], true, clock.now().toISOString());
      const [bobsView] = await bob.store.reading.entriesById(bobReading.id, [newest.id]);
      assert.deepEqual([bobsView?.isRead, bobsView?.isSaved], [false, false]);
      assert.equal(await ann.store.reading.allUnreadCount(), 1);
      assert.equal(await bob.store.reading.allUnreadCount(), 2);
      assert.equal((await bob.store.reading.savedEntries({ limit: 10 })).entries.length, 0);
      assert.equal((await ann.store.reading.savedEntries({ limit: 10 })).entries.length, 1);

      // titles and pauses are each their own; the feed is polled while anyone has it unpaused
      const feedId = first.feed.id;
      await updateFeedSettings(ann, feedId, { title: "Ann's A", paused: true }, { isAdmin: true });
      assert.equal((await feedAsSeen(ann.store, feedId, { isAdmin: false }))?.title, "Ann's A");
      assert.equal((await feedAsSeen(bob.store, feedId, { isAdmin: false }))?.title, 'Test feed');
      assert.equal((await feedAsSeen(bob.store, feedId, { isAdmin: false }))?.paused, false);
      let before = hits(t.site, '/a.xml');
      await run(ann);
      assert.equal(hits(t.site, '/a.xml'), before + 1, 'bob has it unpaused: still polled');
      await updateFeedSettings(bob, feedId, { paused: true }, { isAdmin: false });
      before = hits(t.site, '/a.xml');
      await run(ann);
      assert.equal(hits(t.site, '/a.xml'), before, 'both paused it: not polled');
      await updateFeedSettings(bob, feedId, { paused: false }, { isAdmin: false });

      // what changes the one fetch is the feed's: bob may not change it while ann follows it too
      const refused = await updateFeedSettings(
        bob,
        feedId,
        { pollIntervalSeconds: 3600 },
        { isAdmin: false },
      );
      assert.equal(refused.kind === 'refused' && refused.reason, 'shared');
      const byAdmin = await updateFeedSettings(ann, feedId, { pollIntervalSeconds: 3600 }, { isAdmin: true });
      assert.equal(byAdmin.kind, 'updated');

      // a feed bob does not follow is not his to see or change
      const other = await follow(ann, { url: `${t.site.url}/b.xml`, channel: 'News' });
      assert.ok(other.kind === 'followed');
      assert.equal(await feedAsSeen(bob.store, other.feed.id, { isAdmin: false }), undefined);
      const foreign = await updateFeedSettings(bob, other.feed.id, { title: 'mine' }, { isAdmin: false });
      assert.equal(foreign.kind, 'not-found');
      assert.equal((await feedAsSeen(ann.store, other.feed.id, { isAdmin: false }))?.title, 'B feed');

      // an admin who does not follow a feed has no title or pause of it: bob's feed stays bob's
      const bobsOwn = await follow(bob, { url: `${t.site.url}/blog/feed.xml`, channel: 'Reading' });
      assert.ok(bobsOwn.kind === 'followed');
      const overruled = await updateFeedSettings(
        ann,
        bobsOwn.feed.id,
        { title: "Ann's name", paused: true },
        { isAdmin: true },
      );
      assert.equal(overruled.kind === 'refused' && overruled.reason, 'not-followed');
      const bobsFeed = await feedAsSeen(bob.store, bobsOwn.feed.id, { isAdmin: false });
      assert.deepEqual([bobsFeed?.title, bobsFeed?.paused], ['Test feed', false]);
      assert.equal((await store.feeds.get(bobsOwn.feed.id))?.paused, false, 'still polled');
      // what the admin may change is the fetch
      const fetchByAdmin = await updateFeedSettings(
        ann,
        bobsOwn.feed.id,
        { pollIntervalSeconds: 7200 },
        { isAdmin: true },
      );
      assert.equal(fetchByAdmin.kind, 'updated');
      await unfollow(bob, { feedId: bobsOwn.feed.id });

      // ann leaves: bob still follows it, it is still polled; bob leaves: nobody does
      const annLeft = await unfollow(ann, { feedId });
      assert.equal(annLeft.kind === 'unfollowed' && annLeft.unfollowed, false);
      assert.equal((await store.feeds.get(feedId))?.unfollowedAt, undefined);
      before = hits(t.site, '/a.xml');
      await run(ann);
      assert.equal(hits(t.site, '/a.xml'), before + 1);
      const bobLeft = await unfollow(bob, { feedId });
      assert.equal(bobLeft.kind === 'unfollowed' && bobLeft.unfollowed, true);
      before = hits(t.site, '/a.xml');
      await run(ann);
      assert.equal(hits(t.site, '/a.xml'), before, 'nobody follows it: not polled');
    });
  });
}
