// follow, unfollow, search (feed discovery and entry search) and preview over HTTP. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

type FeedJson = {
  type: string;
  url: string;
  name?: string;
  _source: string;
  _health: { status: string; message?: string };
};

const HTML = 'text/html; charset=utf-8';
const RSS = 'application/rss+xml';

function pageLinking(feedPath: string, title = 'A blog'): string {
  return `<!DOCTYPE html><html><head><title>${title}</title>
    <link rel="alternate" type="application/rss+xml" title="Posts" href="${feedPath}">
    <link rel="me" href="https://social.example/@me"></head><body><p>Hello</p></body></html>`;
}

const HFEED_PAGE = `<!DOCTYPE html><html><head><title>Notes</title></head><body>
  <div class="h-feed"><h1 class="p-name">Jo's notes</h1><a class="p-author h-card" href="/">Jo</a>
  <article class="h-entry"><a class="u-url" href="/n/2">#</a><time class="dt-published" datetime="2026-01-02T10:00:00Z">2 Jan</time>
    <div class="e-content">Second note</div></article>
  <article class="h-entry"><a class="u-url" href="/n/1">#</a><time class="dt-published" datetime="2026-01-01T10:00:00Z">1 Jan</time>
    <div class="e-content">First note</div><a class="u-in-reply-to" href="https://other.example/p">re</a></article>
  </div></body></html>`;

for (const backend of storeBackends()) {
  describe(`microsub follow, search, preview (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let home: string;

    before(async () => {
      h = await openHarness(backend);
      home = (await h.post({ action: 'channels', name: 'Home' })).body['uid'] as string;
      h.docs['/blog/'] = { body: pageLinking('/blog/feed.xml'), type: HTML };
      h.docs['/blog/feed.xml'] = { body: rss([item('b1', 1), item('b2', 2)]), type: RSS };
      h.docs['/notes-blog/'] = { body: pageLinking('/notes-blog/feed.xml'), type: HTML };
      h.docs['/notes-blog/feed.xml'] = {
        body: rss([item('n1', 1)]).replace('https://example.com/', 'https://notes.example/'),
        type: RSS,
      };
      h.docs['/notes/'] = { body: HFEED_PAGE, type: HTML };
      h.docs['/broken.xml'] = { body: rss([item('x', 1)]), type: RSS };
      h.docs['/nothing/'] = {
        body: '<html><head><title>Empty</title></head><body>no feeds</body></html>',
        type: HTML,
      };
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('follows a web page by its feed, fetches it at once and lists it with its health', async () => {
      const followed = await h.post({ action: 'follow', channel: home, url: h.url('/blog/') });
      assert.equal(followed.status, 200, JSON.stringify(followed.body));
      assert.equal(followed.body['type'], 'feed');
      assert.equal(followed.body['url'], h.url('/blog/feed.xml'));
      assert.deepEqual((followed.body['_health'] as FeedJson['_health']).status, 'ok');
      const timeline = await h.get({ action: 'timeline', channel: home });
      assert.equal((timeline.body['items'] as unknown[]).length, 2);
      const list = (await h.get({ action: 'follow', channel: home })).body['items'] as FeedJson[];
      assert.deepEqual(
        list.map((f) => [f.type, f.url, f._health.status]),
        [['feed', h.url('/blog/feed.xml'), 'ok']],
      );
    });

    it('shows a feed that fails in the follow list, with the problem in words', async () => {
      const uid = (await h.post({ action: 'channels', name: 'Failing' })).body['uid'] as string;
      await h.post({ action: 'follow', channel: uid, url: h.url('/broken.xml') });
      delete h.docs['/broken.xml'];
      await h.poll(h.url('/broken.xml'));
      const [feed] = (await h.get({ action: 'follow', channel: uid })).body['items'] as FeedJson[];
      assert.equal(feed?._health.status, 'fetch_error');
      assert.match(feed?._health.message ?? '', /404/);
    });

    it('follows the same feed twice without error, and refuses what cannot be followed', async () => {
      assert.equal(
        (await h.post({ action: 'follow', channel: home, url: h.url('/blog/feed.xml') })).status,
        200,
      );
      assert.equal(((await h.get({ action: 'follow', channel: home })).body['items'] as unknown[]).length, 1);
      assert.equal((await h.post({ action: 'follow', channel: home, url: h.url('/nothing/') })).status, 400);
      assert.equal(
        (await h.post({ action: 'follow', channel: home, url: 'javascript:alert(1)' })).status,
        400,
      );
      assert.equal((await h.post({ action: 'follow', channel: home, url: 'not a url' })).status, 400);
      assert.equal((await h.post({ action: 'follow', channel: home })).status, 400);
      assert.equal(
        (await h.post({ action: 'follow', channel: 'no-such', url: h.url('/blog/') })).status,
        404,
      );
    });

    it('unfollows by feed or page URL, optionally removing the entries from the channel', async () => {
      const uid = (await h.post({ action: 'channels', name: 'Unfollowing' })).body['uid'] as string;
      h.docs['/u.xml'] = { body: rss([item('u1', 1)]), type: RSS };
      await h.post({ action: 'follow', channel: uid, url: h.url('/u.xml') });
      assert.equal((await h.post({ action: 'unfollow', channel: uid, url: h.url('/u.xml') })).status, 200);
      assert.equal(((await h.get({ action: 'follow', channel: uid })).body['items'] as unknown[]).length, 0);
      assert.equal((await h.post({ action: 'unfollow', channel: uid, url: h.url('/u.xml') })).status, 404);
      await h.post({ action: 'follow', channel: uid, url: h.url('/blog/feed.xml') });
      const removed = await h.post({
        action: 'unfollow',
        channel: uid,
        url: h.url('/blog/feed.xml'),
        remove_entries: 'true',
      });
      assert.equal(removed.status, 200);
      assert.equal(
        ((await h.get({ action: 'timeline', channel: uid })).body['items'] as unknown[]).length,
        0,
      );
      assert.equal((await h.get({ action: 'unfollow', channel: uid, url: h.url('/u.xml') })).status, 400);
      // the page the client followed names the feed it was resolved to (issue 13: it answered 404)
      const paged = (await h.post({ action: 'channels', name: 'By page' })).body['uid'] as string;
      await h.post({ action: 'follow', channel: paged, url: h.url('/notes-blog/') });
      assert.equal(
        ((await h.get({ action: 'follow', channel: paged })).body['items'] as unknown[]).length,
        1,
      );
      assert.equal(
        (await h.post({ action: 'unfollow', channel: paged, url: h.url('/notes-blog/') })).status,
        200,
      );
      assert.equal(
        ((await h.get({ action: 'follow', channel: paged })).body['items'] as unknown[]).length,
        0,
      );
    });

    it('discovers the feeds of a page from its URL (search without a channel)', async () => {
      const found = await h.post({ action: 'search', query: h.url('/blog/') });
      assert.equal(found.status, 200);
      const results = found.body['results'] as { type: string; url: string }[];
      assert.deepEqual(results[0], { type: 'feed', url: h.url('/blog/feed.xml'), name: 'Posts' });
    });

    it('finds a feed from a bare domain, and known feeds by words', async () => {
      const host = new URL(h.url('/')).host;
      h.docs['/'] = { body: pageLinking('/blog/feed.xml', 'Root'), type: HTML };
      const byDomain = (await h.post({ action: 'search', query: host })).body['results'] as { url: string }[];
      assert.ok(
        byDomain.some((r) => r.url === h.url('/blog/feed.xml')),
        JSON.stringify(byDomain),
      );
      const byWords = (await h.post({ action: 'search', query: 'Test feed' })).body['results'] as {
        url: string;
      }[];
      assert.ok(byWords.some((r) => r.url === h.url('/blog/feed.xml')));
      assert.deepEqual((await h.post({ action: 'search', query: 'zzz nothing' })).body['results'], []);
    });

    it('discovers an h-feed page as a feed of its own', async () => {
      const results = (await h.post({ action: 'search', query: h.url('/notes/') })).body['results'] as {
        url: string;
        name?: string;
      }[];
      assert.deepEqual(results[0], { type: 'feed', url: h.url('/notes/'), name: "Jo's notes" });
    });

    it('searches entries in a channel and in all channels (global)', async () => {
      h.docs['/s.xml'] = {
        body: rss([
          item('s1', 1, { title: 'Gardening tips', description: 'About tomatoes' }),
          item('s2', 2, { title: 'Cooking' }),
        ]),
        type: RSS,
      };
      const uid = (await h.post({ action: 'channels', name: 'Searching' })).body['uid'] as string;
      await h.post({ action: 'follow', channel: uid, url: h.url('/s.xml') });
      const inChannel = await h.post({ action: 'search', channel: uid, query: 'tomatoes' });
      assert.equal(inChannel.status, 200);
      assert.deepEqual(
        (inChannel.body['items'] as { uid: string }[]).map((i) => i.uid),
        ['s1'],
      );
      const global = await h.post({ action: 'search', channel: 'global', query: 'tomatoes' });
      assert.deepEqual(
        (global.body['items'] as { uid: string }[]).map((i) => i.uid),
        ['s1'],
      );
      assert.equal((await h.post({ action: 'search', channel: uid })).status, 400);
    });

    it('previews a feed without following it', async () => {
      h.docs['/p.xml'] = { body: rss([item('p1', 1), item('p2', 2)]), type: RSS };
      const preview = await h.post({ action: 'preview', url: h.url('/p.xml') });
      assert.equal(preview.status, 200);
      const items = preview.body['items'] as { type: string; uid: string; _id?: string }[];
      assert.deepEqual(items.map((i) => i.uid).sort(), ['p1', 'p2']);
      assert.equal(items[0]?.type, 'entry');
      assert.equal(items[0]?._id, undefined);
      assert.equal(await h.store.feeds.findByUrl(h.url('/p.xml')), undefined, 'nothing stored');
      const viaGet = await h.get({ action: 'preview', url: h.url('/blog/') });
      assert.equal((viaGet.body['items'] as unknown[]).length, 2);
    });

    it('previews the latest entries, newest first, of a feed that lists them oldest first', async () => {
      const oldestFirst = Array.from({ length: 30 }, (_, i) => item(`o${i}`, i));
      h.docs['/oldest-first.xml'] = { body: rss(oldestFirst), type: RSS };
      const preview = await h.post({ action: 'preview', url: h.url('/oldest-first.xml') });
      const uids = (preview.body['items'] as { uid: string }[]).map((i) => i.uid);
      assert.equal(uids.length, 20);
      assert.deepEqual(uids.slice(0, 3), ['o29', 'o28', 'o27']);
      assert.equal(uids.at(-1), 'o10');
    });

    it('follows an h-feed page and shows its entries at once', async () => {
      const uid = (await h.post({ action: 'channels', name: 'Notes' })).body['uid'] as string;
      const followed = await h.post({ action: 'follow', channel: uid, url: h.url('/notes/') });
      assert.equal(followed.status, 200);
      assert.equal((followed.body['_health'] as FeedJson['_health']).status, 'ok');
      const items = (await h.get({ action: 'timeline', channel: uid })).body['items'] as { url: string }[];
      assert.deepEqual(
        items.map((i) => i.url),
        [h.url('/n/2'), h.url('/n/1')],
      );
    });

    it('previews an h-feed page as jf2 notes with their replies', async () => {
      const preview = await h.post({ action: 'preview', url: h.url('/notes/') });
      assert.equal(preview.status, 200, JSON.stringify(preview.body));
      const items = preview.body['items'] as Record<string, unknown>[];
      assert.equal(items.length, 2);
      assert.equal(items[0]?.['name'], undefined);
      assert.deepEqual(items[1]?.['in-reply-to'], ['https://other.example/p']);
      assert.equal((items[0]?.['author'] as { name?: string } | undefined)?.name, 'Jo');
      assert.equal((await h.post({ action: 'preview', url: h.url('/nothing/') })).status, 400);
      assert.equal((await h.post({ action: 'preview' })).status, 400);
    });
  });
}
