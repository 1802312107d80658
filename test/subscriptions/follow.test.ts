// The follow and unfollow rules of src/subscriptions, against both databases (issue 13).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { healthOf } from '../../src/model/stored.js';
import { pollOnce } from '../../src/poll/poller.js';
import { DEFAULT_CHANNEL_NAME, follow, unfollow } from '../../src/subscriptions/index.js';
import { testClock } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { hits, subscriptionDeps, withSite } from './fixtures.js';

for (const backend of storeBackends()) {
  describe(`subscriptions: follow and unfollow (${backend.name})`, { skip: backend.skip }, () => {
    const clock = testClock();
    const t = withSite(backend, clock);
    const url = (path: string) => `${t.site.url}${path}`;

    it('follows a web page by its feed, in the default channel "Home", and fetches it at once', async () => {
      const result = await follow(t.deps, { url: url('/blog/') });
      assert.equal(result.kind, 'followed');
      if (result.kind !== 'followed') return;
      assert.equal(result.feed.url, url('/blog/feed.xml'));
      assert.equal(result.page, url('/blog/'));
      assert.equal(result.channel.name, DEFAULT_CHANNEL_NAME);
      assert.deepEqual([result.firstFetch.status, result.firstFetch.newEntries], ['ok', 2]);
      // one request each: the page, and its feed, whose answer is the first poll's (no second fetch)
      assert.deepEqual([hits(t.site, '/blog/'), hits(t.site, '/blog/feed.xml')], [1, 1]);
      // the default is remembered: renamed, it stays the default
      await t.deps.store.channels.rename(result.channel.uid, 'Everything');
      const next = await follow(t.deps, { url: url('/b.xml') });
      assert.equal(next.kind === 'followed' && next.channel.uid, result.channel.uid);
    });

    it('following a feed URL fetches it once: the answer that showed it is a feed is its first poll', async () => {
      const result = await follow(t.deps, { url: url('/a.xml?once'), channel: 'Once' });
      assert.equal(result.kind, 'followed');
      if (result.kind !== 'followed') return;
      assert.deepEqual([result.firstFetch.status, result.firstFetch.newEntries], ['ok', 2]);
      assert.equal(hits(t.site, '/a.xml?once'), 1);
      const entries = await t.deps.store.entries.listByFeed(result.feed.id, 10);
      assert.deepEqual(entries.map((e) => e.title).sort(), ['a one', 'a two']);
      // the next poll asks again, as any poll does: the first one counted as a poll
      const stored = await t.deps.store.feeds.get(result.feed.id);
      assert.ok(stored?.lastCheckedAt, 'the first poll left its heartbeat');
      clock.advance(60_000);
      await pollOnce(t.deps.poll, { feedIds: [result.feed.id], force: true });
      assert.equal(hits(t.site, '/a.xml?once'), 2);
      await unfollow(t.deps, { url: result.feed.url });
    });

    it('follows a feed where its permanent redirects lead, not past a temporary one, and by the URL given', async () => {
      const result = await follow(t.deps, { url: url('/perm.xml'), channel: 'Redirected' });
      assert.equal(result.kind, 'followed');
      if (result.kind !== 'followed') return;
      // 301 /perm.xml -> /temp.xml, 302 -> /blog/feed.xml?via=temp: the 302 moves nothing (RFC 9110 15.4.3)
      assert.equal(result.feed.url, url('/temp.xml'));
      assert.equal(result.feed.originalUrl, url('/perm.xml'));
      assert.deepEqual([result.firstFetch.status, result.firstFetch.newEntries], ['ok', 2]);
      // unfollowed by the URL the person gave
      const gone = await unfollow(t.deps, { url: url('/perm.xml') });
      assert.equal(gone.kind, 'unfollowed');
    });

    it('refuses a page whose feed link answers 404, with the reason, as a dead feed URL is', async () => {
      const before = (await t.deps.store.feeds.list()).length;
      const result = await follow(t.deps, { url: url('/dead-link/') });
      assert.equal(result.kind, 'refused');
      assert.match(
        result.kind === 'refused' ? result.message : '',
        /404.*\(the feed .*\/dead-link\/ links to\)/,
      );
      assert.equal((await t.deps.store.feeds.list()).length, before, 'no feed is added');
    });

    it('following a feed the channel follows changes nothing and says so', async () => {
      const before = await t.deps.store.channels.listSubscriptions();
      const requests = t.site.requests.length;
      const again = await follow(t.deps, { url: url('/b.xml') });
      assert.equal(again.kind, 'already');
      assert.equal(again.kind === 'already' && again.channel.name, 'Everything');
      assert.deepEqual(await t.deps.store.channels.listSubscriptions(), before);
      assert.equal(t.site.requests.length, requests, 'a known URL is not fetched again');
    });

    it('a feed followed elsewhere is followed in another channel only when asked for', async () => {
      const elsewhere = await follow(t.deps, { url: url('/b.xml'), channel: 'Blogs' });
      assert.equal(elsewhere.kind, 'elsewhere');
      assert.deepEqual(elsewhere.kind === 'elsewhere' && elsewhere.channels.map((c) => c.name), [
        'Everything',
      ]);
      assert.equal(
        (await t.deps.store.channels.list()).some((c) => c.name === 'Blogs'),
        false,
        'nothing changes, not even a new channel',
      );
      const also = await follow(t.deps, { url: url('/b.xml'), channel: 'Blogs', inAnotherChannel: true });
      assert.equal(also.kind, 'followed');
      assert.equal(also.kind === 'followed' && also.channel.name, 'Blogs');
      assert.equal(
        also.kind === 'followed' && also.firstFetch.newEntries,
        0,
        'a feed fetched before is not fetched again',
      );
      // the page URL names the same feed: still the same answer
      assert.equal((await follow(t.deps, { url: url('/blog/'), channel: 'Blogs' })).kind, 'elsewhere');
    });

    it('refuses what is not an http(s) URL, a private address, a page without feeds, a failing URL', async () => {
      const kinds = async (u: string, d = t.deps) => {
        const r = await follow(d, { url: u });
        return r.kind === 'refused' ? r.reason : r.kind;
      };
      assert.equal(await kinds('not a url'), 'bad-url');
      assert.equal(await kinds('ftp://example.com/feed'), 'bad-url');
      assert.equal(await kinds('javascript:alert(1)'), 'bad-url');
      const strict = subscriptionDeps(t.deps.store, clock, { allowPrivateAddresses: false });
      assert.equal(await kinds(url('/a.xml'), strict), 'private-address');
      assert.equal(await kinds('http://[::1]/feed', strict), 'private-address');
      assert.equal(await kinds(url('/nothing/')), 'not-a-feed');
      assert.equal(await kinds(url('/missing.xml')), 'fetch-failed');
      assert.equal(await t.deps.store.feeds.findByUrl(url('/missing.xml')), undefined);
    });

    it('unfollows by feed URL, the URL first followed, or the t.site URL; a feed nobody follows is not polled', async () => {
      const blog = await t.deps.store.feeds.findByUrl(url('/blog/feed.xml'));
      assert.ok(blog);
      // the page it was followed by, with another scheme and a trailing slash missing
      const byPage = await unfollow(t.deps, { url: url('/blog').replace('http:', 'https:') });
      assert.equal(byPage.kind, 'unfollowed');
      assert.equal(byPage.kind === 'unfollowed' && byPage.unfollowed, true);
      const feed = await t.deps.store.feeds.get(blog.id);
      assert.ok(feed?.unfollowedAt);
      assert.equal(healthOf(feed, false), 'unfollowed');
      const before = hits(t.site, '/blog/feed.xml');
      await pollOnce(t.deps.poll, { force: true });
      await pollOnce(t.deps.poll, { force: true, feedIds: [blog.id] });
      assert.equal(hits(t.site, '/blog/feed.xml'), before, 'not claimed, also with --force and --feed');
      assert.equal((await unfollow(t.deps, { url: url('/blog/') })).kind, 'not-found');

      // by t.site URL, in one channel of two
      const b = await t.deps.store.feeds.findByUrl(url('/b.xml'));
      assert.ok(b);
      const one = await unfollow(t.deps, { url: 'https://EXAMPLE.com', channel: 'Blogs' });
      assert.deepEqual(
        one.kind === 'unfollowed' && [one.feed.id, one.channels.map((c) => c.name), one.unfollowed],
        [b.id, ['Blogs'], false],
      );
      assert.equal((await unfollow(t.deps, { feedId: b.id })).kind, 'unfollowed');
    });

    it('following an unfollowed feed again resumes it with its entries and heartbeats', async () => {
      const blog = await t.deps.store.feeds.findByUrl(url('/blog/feed.xml'));
      assert.ok(blog);
      const beats = (await t.deps.store.heartbeats.list(blog.id, 10)).length;
      const again = await follow(t.deps, { url: url('/blog/feed.xml'), channel: 'Blogs' });
      assert.equal(again.kind, 'followed');
      if (again.kind !== 'followed') return;
      assert.equal(again.resumed, true);
      assert.equal(again.feed.id, blog.id);
      assert.equal(again.feed.unfollowedAt, undefined);
      assert.equal((await t.deps.store.heartbeats.list(blog.id, 10)).length, beats);
      assert.equal((await t.deps.store.entries.listByFeed(blog.id, 10)).length, 2);
    });

    it('forgets a feed unfollowed more than 30 days ago, and marks feeds of a deleted channel unfollowed', async () => {
      const a = await follow(t.deps, { url: url('/a.xml'), channel: 'Short-lived' });
      assert.equal(a.kind, 'followed');
      if (a.kind !== 'followed') return;
      await t.deps.store.channels.delete(a.channel.uid);
      await pollOnce(t.deps.poll);
      assert.ok((await t.deps.store.feeds.get(a.feed.id))?.unfollowedAt, 'marked by the next poll run');
      clock.advance(29 * 86_400_000);
      await pollOnce(t.deps.poll);
      assert.ok(await t.deps.store.feeds.get(a.feed.id), 'kept for 30 days');
      clock.advance(2 * 86_400_000);
      await pollOnce(t.deps.poll);
      assert.equal(await t.deps.store.feeds.get(a.feed.id), undefined, 'then forgotten with its entries');
      assert.ok(await t.deps.store.feeds.findByUrl(url('/blog/feed.xml')), 'followed feeds stay');
    });
  });
}
