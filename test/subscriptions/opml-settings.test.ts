// OPML import/export, move and feed settings of src/subscriptions, against both databases (issue 13).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import {
  exportOpml,
  feedAsSeen,
  follow,
  importOpml,
  move,
  updateFeedSettings,
} from '../../src/subscriptions/index.js';
import { testClock } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { hits, subscriptionDeps, withSite } from './fixtures.js';

function opml(site: string, extra = ''): string {
  return `<?xml version="1.0"?>
<opml version="2.0"><head><title>mine</title></head><body>
  <outline text="Loose" xmlUrl="${site}/a.xml"/>
  <outline text="Tech">
    <outline text="B" xmlUrl="${site}/b.xml"/>
    <outline text="Deeper">
      <outline text="Blog page" xmlUrl="${site}/blog/"/>
    </outline>
  </outline>
  <outline text="Bad">
    <outline text="not a url" xmlUrl="not a url"/>
    <outline text="ftp" xmlUrl="ftp://example.com/feed"/>
    <outline text="B again" xmlUrl="${site}/b.xml/"/>
  </outline>${extra}
</body></opml>`;
}

// each run polls a feed once: the test clock moves on between runs, as time does
const clock = testClock();
const poll: typeof pollOnce = (d, options) => {
  clock.advance(60_000);
  return pollOnce(d, options);
};

const withoutDate = (text: string) => text.replace(/<dateCreated>.*<\/dateCreated>/, '');

for (const backend of storeBackends()) {
  describe(`subscriptions: OPML, move, settings (${backend.name})`, { skip: backend.skip }, () => {
    const t = withSite(backend, clock);

    it('imports without fetching, keeps nested folders, files loose outlines in Home, reports each skipped outline by line', async () => {
      const requests = t.site.requests.length;
      const result = await importOpml(t.deps, opml(t.site.url));
      assert.equal(t.site.requests.length, requests, 'nothing is fetched while importing');
      assert.deepEqual(
        [result.total, result.followed, result.added, result.alreadyFollowed, result.failed],
        [6, 4, 3, 0, 2],
      );
      assert.deepEqual(
        result.skipped.map((s) => [s.line, s.reason.replace(/"[^"]*"|ftp:\S+/, 'X')]),
        [
          [11, 'X is not a URL'],
          [12, 'X only http and https URLs can be followed'],
        ],
      );
      const byChannel = new Map<string, string[]>();
      const channels = await t.deps.store.channels.list();
      for (const s of await t.deps.store.channels.listSubscriptions()) {
        const name = channels.find((c) => c.id === s.channelId)?.name ?? '?';
        byChannel.set(name, [...(byChannel.get(name) ?? []), s.feed.url.replace(t.site.url, '')]);
      }
      assert.deepEqual(Object.fromEntries(byChannel), {
        Home: ['/a.xml'],
        Tech: ['/b.xml'],
        'Tech / Deeper': ['/blog/'],
        // B again, under another folder: followed there too (a feed in two channels is in two folders)
        Bad: ['/b.xml'],
      });
    });

    it('names a folder written across lines with one line', async () => {
      const folder = (text: string) =>
        `<?xml version="1.0"?><opml version="2.0"><body><outline text="${text}"><outline type="rss" text="A" xmlUrl="${t.site.url}/a.xml?in-a-folder"/></outline></body></opml>`;
      const result = await importOpml(t.deps, folder('Long&#10;  folder&#9;name'));
      assert.equal(result.followed, 1);
      const made = (await t.deps.store.channels.list()).find((c) => c.name === 'Long folder name');
      assert.ok(made, 'one channel of the folder, named on one line');
      await t.deps.store.channels.delete(made.uid); // the tests after this one count the others
    });

    it('resolves an outline that is a web page by its first poll', async () => {
      await poll(t.deps.poll, { force: true });
      const page = await t.deps.store.feeds.findByUrl(`${t.site.url}/blog/`);
      assert.equal(page?.url, `${t.site.url}/blog/feed.xml`);
      await poll(t.deps.poll);
      assert.equal((await t.deps.store.feeds.get(page.id))?.status, 'ok');
      assert.equal((await t.deps.store.entries.listByFeed(page.id, 10)).length, 2);
    });

    it('fetching at once (the web import), reports and unfollows an outline that is a page without feeds', async () => {
      // time moves while a real import runs: the second run (the pages' feeds) comes after the first
      const ticking = {
        ...clock,
        now: () => {
          clock.advance(1);
          return clock.now();
        },
      };
      const other = subscriptionDeps(await backend.open(), ticking);
      const text = `<opml version="2.0"><body>
        <outline text="page" xmlUrl="${t.site.url}/blog/"/>
        <outline text="nothing" xmlUrl="${t.site.url}/nothing/"/>
        <outline text="dead" xmlUrl="${t.site.url}/dead-link/feed.xml"/></body></opml>`;
      const result = await importOpml(other, text, { fetchNow: true });
      assert.deepEqual(
        [result.followed, result.skipped.map((s) => [s.line, s.reason.replace(/^(.*404).*$/, '$1')])],
        [
          1,
          [
            [3, 'not a feed: a web page that links to no feed'],
            [4, 'fetch: the server answered 404'],
          ],
        ],
      );
      // a URL that is not there leaves no feed behind, as add refuses it
      assert.equal(await other.store.feeds.findByUrl(`${t.site.url}/dead-link/feed.xml`), undefined);
      const page = await other.store.feeds.findByUrl(`${t.site.url}/blog/`);
      assert.deepEqual([page?.url, page?.status], [`${t.site.url}/blog/feed.xml`, 'ok']);
      // no row is left of the page that is no feed (issue 22: it stayed as an unfollowed feed)
      assert.equal(await other.store.feeds.findByUrl(`${t.site.url}/nothing/`), undefined);
    });

    it('follows the feed a page outline links to when tidings has it already (another person follows it)', async () => {
      const store = await backend.open();
      const deps = subscriptionDeps(store, clock);
      // the feed is in the instance already, not followed by this store's person
      const blog = await store.feeds.add(`${t.site.url}/blog/feed.xml`, clock.now().toISOString());
      const text = `<opml version="2.0"><body><outline text="Blogs">
        <outline text="page" xmlUrl="${t.site.url}/blog/"/></outline></body></opml>`;
      const result = await importOpml(deps, text, { fetchNow: true });
      assert.deepEqual([result.followed, result.added, result.skipped], [1, 0, []]);
      const subscriptions = await store.channels.listSubscriptions();
      assert.deepEqual(
        subscriptions.map((s) => s.feedId),
        [blog.id],
      );
      const blogs = (await store.channels.list()).find((c) => c.name === 'Blogs');
      assert.equal(subscriptions[0]?.channelId, blogs?.id);
      // no row is left of the page
      assert.equal(await store.feeds.findByUrl(`${t.site.url}/blog/`), undefined);
      // imported again: followed already, by the page's feed
      const again = await importOpml(deps, text, { fetchNow: true });
      assert.deepEqual(
        [again.followed, again.skipped.map((s) => s.reason)],
        [0, ['already followed in Blogs']],
      );
    });

    // Issue 22: "imported 65 feeds (66 new)", "followed 0 feeds of 5 (1 new)", an empty channel for a
    // folder where nothing was followed, and "no feed here" outlines left as unfollowed feeds.
    it('sums a mixed file: followed + already followed + failed = outlines, new <= followed, no debris', async () => {
      const store = await backend.open();
      const deps = subscriptionDeps(store, clock);
      const site = t.site.url;
      await follow(deps, { url: `${site}/b.xml`, channel: 'Existing' });
      const gone = await store.feeds.add(`${site}/gone.xml`, clock.now().toISOString());
      await store.feeds.update(gone.id, { unfollowedAt: clock.now().toISOString() });
      const channelsBefore = (await store.channels.list()).map((c) => c.name);
      const feedsBefore = (await store.feeds.list()).length;
      const text = `<opml version="2.0"><body>
        <outline text="Fresh"><outline text="A" xmlUrl="${site}/a.xml"/><outline text="page" xmlUrl="${site}/blog/"/></outline>
        <outline text="Old"><outline text="B" xmlUrl="${site}/b.xml"/></outline>
        <outline text="Empty"><outline text="none" xmlUrl="${site}/nothing/"/><outline text="bad" xmlUrl="not a url"/></outline>
        <outline text="Again"><outline text="A" xmlUrl="${site}/a.xml"/><outline text="none" xmlUrl="${site}/nothing/"/></outline>
        <outline text="Back" xmlUrl="${site}/gone.xml"/>
      </body></opml>`;
      const result = await importOpml(deps, text, { fetchNow: true });
      assert.equal(result.total, 8);
      // A under a second folder ("Again") is followed there too: a feed in two channels is in two folders
      assert.deepEqual([result.followed, result.added, result.alreadyFollowed, result.failed], [4, 2, 1, 3]);
      assert.equal(result.followed + result.alreadyFollowed + result.failed, result.total);
      assert.ok(result.added <= result.followed);
      assert.equal(result.skipped.length, result.alreadyFollowed + result.failed);
      assert.deepEqual(
        result.skipped.map((s) => [s.line, s.outcome, s.reason.replace(/"[^"]*"/, 'X')]),
        [
          [3, 'already-followed', 'already followed in Existing'],
          [4, 'failed', 'not a feed: a web page that links to no feed'],
          [4, 'failed', 'X is not a URL'],
          [5, 'failed', 'a duplicate of line 4'],
        ],
      );
      // channels only where something was followed; no feed row for the page without a feed
      const channels = (await store.channels.list()).map((c) => c.name);
      assert.deepEqual(channels.filter((name) => !channelsBefore.includes(name)).sort(), [
        'Again',
        'Fresh',
        'Home',
      ]);
      assert.equal(await store.feeds.findByUrl(`${site}/nothing/`), undefined);
      assert.equal((await store.feeds.list()).length, feedsBefore + result.added);
      assert.equal((await store.feeds.get(gone.id))?.unfollowedAt, undefined);
      // the same file again: everything is followed already or fails, and nothing new is made
      const again = await importOpml(deps, text, { fetchNow: true });
      assert.deepEqual([again.followed, again.added, again.alreadyFollowed, again.failed], [0, 0, 5, 3]);
      assert.deepEqual(
        (await store.channels.list()).map((c) => c.name),
        channels,
      );
      assert.equal((await store.feeds.list()).length, feedsBefore + result.added);
    });

    it('round-trips a feed in two channels and a title of its own through export and import', async () => {
      const store = await backend.open();
      const deps = subscriptionDeps(store, clock);
      const site = t.site.url;
      const followed = await follow(deps, { url: `${site}/a.xml`, channel: 'One' });
      assert.equal(followed.kind, 'followed');
      const feedId = followed.kind === 'followed' ? followed.feed.id : 0;
      await follow(deps, { url: `${site}/a.xml`, channel: 'Two', inAnotherChannel: true });
      await updateFeedSettings(deps, feedId, { title: 'Mine' }, { isAdmin: false });
      const exported = await exportOpml(deps);
      const other = subscriptionDeps(await backend.open(), clock);
      const result = await importOpml(other, exported, { fetchNow: true });
      assert.deepEqual([result.followed, result.added, result.skipped], [2, 1, []]);
      assert.equal(withoutDate(await exportOpml(other)), withoutDate(exported));
      // the title is the person's own: a poll keeps it
      const [subscription] = await other.store.channels.listSubscriptions();
      clock.advance(3600_000);
      await pollOnce(other.poll, { feedIds: [subscription?.feedId ?? 0], force: true });
      assert.equal(withoutDate(await exportOpml(other)), withoutDate(exported));
    });

    it('reports outlines already followed; import, export, import loses nothing', async () => {
      const again = await importOpml(t.deps, opml(t.site.url));
      assert.deepEqual(
        again.skipped.filter((s) => s.reason.startsWith('already')).map((s) => [s.line, s.reason]),
        [
          [3, 'already followed in Home'],
          [5, 'already followed in Tech, Bad'],
          [7, 'already followed in Tech / Deeper'],
        ],
      );
      const exported = await exportOpml(t.deps);
      assert.match(
        exported,
        /<outline text="Tech" title="Tech">[\s\S]*<outline text="Deeper" title="Deeper">/,
      );
      const other = subscriptionDeps(await backend.open(), clock);
      const reimported = await importOpml(other, exported);
      assert.deepEqual([reimported.followed, reimported.skipped], [4, []]);
      assert.equal(withoutDate(await exportOpml(other)), withoutDate(exported));
    });

    it('moves a feed to another channel, created when new', async () => {
      const b = await t.deps.store.feeds.findByUrl(`${t.site.url}/b.xml`);
      assert.ok(b);
      const moved = await move(t.deps, { feedId: b.id, to: 'Later' });
      assert.deepEqual(moved.kind === 'moved' && [moved.from.map((c) => c.name), moved.to.name], [
        ['Tech', 'Bad'],
        'Later',
      ]);
      assert.equal((await follow(t.deps, { url: b.url, channel: 'Later' })).kind, 'already');
      assert.equal((await move(t.deps, { feedId: b.id, from: 'Tech', to: 'Home' })).kind, 'not-found');
    });

    it("sets a feed's own title (kept by polls), interval, user agent, pause and URL", async () => {
      const a = await t.deps.store.feeds.findByUrl(`${t.site.url}/a.xml`);
      assert.ok(a);
      const set = await updateFeedSettings(t.deps, a.id, {
        title: 'My A',
        pollIntervalSeconds: 900,
        userAgent: 'Friendly/1.0',
      });
      assert.equal(set.kind, 'updated');
      await poll(t.deps.poll, { force: true, feedIds: [a.id] });
      // the title is the follower's own; the feed keeps the one it gives itself
      const polled = await feedAsSeen(t.deps.store, a.id, { isAdmin: false });
      assert.deepEqual(
        [polled?.title, polled?.customTitle, polled?.pollIntervalSeconds, polled?.userAgent],
        ['My A', 'My A', 900, 'Friendly/1.0'],
      );
      assert.equal((await t.deps.store.feeds.get(a.id))?.title, 'Test feed');
      assert.equal(t.site.requests.at(-1)?.headers['user-agent'], 'Friendly/1.0');
      assert.equal((await updateFeedSettings(t.deps, a.id, { pollIntervalSeconds: 5 })).kind, 'refused');
      // a shorter interval counts from the last check, not from the next check the old one planned
      const checked = await t.deps.store.feeds.get(a.id);
      assert.ok(checked?.lastCheckedAt);
      const planned = Date.parse(checked.nextCheckAt) - Date.parse(checked.lastCheckedAt);
      assert.ok(planned > 120_000, `planned ${planned} ms after the check`);
      await updateFeedSettings(t.deps, a.id, { pollIntervalSeconds: 60 });
      const sooner = await t.deps.store.feeds.get(a.id);
      assert.equal(
        sooner?.nextCheckAt,
        new Date(Math.max(Date.parse(checked.lastCheckedAt) + 60_000, clock.now().getTime())).toISOString(),
      );
      // a longer one leaves the next check as planned (the next poll plans by it)
      await updateFeedSettings(t.deps, a.id, { pollIntervalSeconds: 7200 });
      assert.equal((await t.deps.store.feeds.get(a.id))?.nextCheckAt, sooner?.nextCheckAt);
      await updateFeedSettings(t.deps, a.id, { pollIntervalSeconds: 900 });
      await updateFeedSettings(t.deps, a.id, { title: null, paused: true });
      const before = hits(t.site, '/a.xml');
      await poll(t.deps.poll, { force: true, feedIds: [a.id] });
      assert.equal(hits(t.site, '/a.xml'), before, 'paused: not polled');
      await updateFeedSettings(t.deps, a.id, { paused: false });
      await poll(t.deps.poll, { force: true, feedIds: [a.id] });
      assert.equal(
        (await feedAsSeen(t.deps.store, a.id, { isAdmin: false }))?.title,
        'Test feed',
        'its own title is back',
      );

      const taken = await updateFeedSettings(t.deps, a.id, { url: `${t.site.url}/b.xml` });
      assert.equal(taken.kind === 'refused' && taken.reason, 'taken');
      assert.equal((await updateFeedSettings(t.deps, a.id, { url: 'gopher://x' })).kind, 'refused');
      const movedUrl = await updateFeedSettings(t.deps, a.id, { url: `${t.site.url}/a.xml?moved=1` });
      assert.equal(movedUrl.kind === 'updated' && movedUrl.feed.url, `${t.site.url}/a.xml?moved=1`);
      assert.equal(movedUrl.kind === 'updated' && movedUrl.feed.nextCheckAt, clock.now().toISOString());
    });
  });
}
