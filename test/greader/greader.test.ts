import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_PASSWORD,
  API_USER,
  openSyncHarness,
  rssItem,
  type SyncHarness,
} from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type GReaderClient, type Json, signIn } from './harness.js';

const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';
const READING_LIST = 'user/-/state/com.google/reading-list';
const long = (id: number) => `tag:google.com,2005:reader/item/${id.toString(16).padStart(16, '0')}`;

for (const backend of storeBackends()) {
  describe(`google reader API (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let app: GReaderClient;
    let news: { feedId: number };
    let blog: { feedId: number };
    let newsIds: number[];
    let blogIds: number[];

    const refIds = async (query: string) =>
      ((await app.json(`stream/items/ids?output=json&${query}`))['itemRefs'] as { id: string }[]).map((r) =>
        Number(r.id),
      );
    const items = (answer: Json) => answer['items'] as Json[];

    before(async () => {
      h = await openSyncHarness(backend);
      h.serve(
        '/news.xml',
        [0, 1, 2, 3, 4].map((i) => rssItem(`n${i}`, i)),
      );
      h.serve('/blog.xml', [rssItem('b0', 0), rssItem('b1', 1), rssItem('b2', 2)]);
      news = await h.follow('/news.xml', 'News');
      blog = await h.follow('/blog.xml', 'Blogs');
      newsIds = await h.entryIds(news.feedId);
      blogIds = await h.entryIds(blog.feedId);
      app = await signIn(h);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('signs in with ClientLogin in a form, a query string, at greader.php, and as JSON', async () => {
      const viaQuery = await h.app.request(
        `/api/greader.php/accounts/ClientLogin?Email=${API_USER}&Passwd=${encodeURIComponent(API_PASSWORD)}`,
      );
      assert.equal(viaQuery.status, 200);
      assert.match(await viaQuery.text(), /^SID=[0-9a-f]{64}\nLSID=[0-9a-f]{64}\nAuth=[0-9a-f]{64}\n$/);
      const json = await h.app.request('/api/greader/accounts/ClientLogin', {
        method: 'POST',
        body: new URLSearchParams({ Email: API_USER, Passwd: API_PASSWORD, output: 'json' }),
      });
      assert.match(String(((await json.json()) as Json)['Auth']), /^[0-9a-f]{64}$/);
      const other = await signIn(h, '/api/greader.php');
      assert.equal((await other.json('user-info?output=json'))['userName'], API_USER);
    });

    it('refuses a wrong password with 401 Error=BadAuthentication, and calls without a valid token', async () => {
      const res = await h.app.request('/api/greader/accounts/ClientLogin', {
        method: 'POST',
        body: new URLSearchParams({ Email: API_USER, Passwd: 'wrong password' }),
      });
      assert.equal(res.status, 401);
      assert.equal(await res.text(), 'Error=BadAuthentication\n');
      assert.equal((await h.app.request('/api/greader/reader/api/0/user-info')).status, 401);
      const forged = await h.app.request('/api/greader/reader/api/0/user-info', {
        headers: { authorization: `GoogleLogin auth=${'0'.repeat(64)}` },
      });
      assert.equal(forged.status, 401);
      // never the web UI's login redirect
      assert.equal((await h.app.request('/api/greader/nothing')).status, 404);
      h.clock.advance(16 * 60_000);
    });

    it('gives a write token, and accepts writes with T raw, with its newline, or without it', async () => {
      const res = await app.get('token');
      const t = await res.text();
      assert.match(t, /^\S{57}\n$/);
      const [n0] = newsIds as [number];
      for (const form of [{ T: t }, { T: t.trim() }, {}]) {
        const edit = await app.post('edit-tag', { i: String(n0), a: READ, ...form });
        assert.equal(edit.status, 200);
        assert.equal(await edit.text(), 'OK');
      }
      await app.post('edit-tag', { i: String(n0), r: READ });
    });

    it('lists subscriptions as feed/<id> with their folders, and folders and starred as tags', async () => {
      const list = (await app.json('subscription/list?output=json'))['subscriptions'] as Json[];
      assert.deepEqual(
        list.map((s) => [s['id'], s['title'], s['categories'], s['url']]),
        [
          [
            `feed/${news.feedId}`,
            'Test feed',
            [{ id: 'user/-/label/News', label: 'News' }],
            h.url('/news.xml'),
          ],
          [
            `feed/${blog.feedId}`,
            'Test feed',
            [{ id: 'user/-/label/Blogs', label: 'Blogs' }],
            h.url('/blog.xml'),
          ],
        ],
      );
      assert.equal(list[0]?.['htmlUrl'], 'https://example.com/');
      const tags = (await app.json('tag/list?output=json'))['tags'] as Json[];
      assert.deepEqual(tags, [
        { id: STARRED },
        { id: 'user/-/label/News', type: 'folder' },
        { id: 'user/-/label/Blogs', type: 'folder' },
      ]);
    });

    it('counts unread per feed, per folder and for the reading list', async () => {
      const counts = (await app.json('unread-count?output=json'))['unreadcounts'] as Json[];
      const byId = new Map(counts.map((c) => [c['id'], c['count']]));
      assert.equal(byId.get(`feed/${news.feedId}`), 5);
      assert.equal(byId.get('user/-/label/Blogs'), 3);
      assert.equal(byId.get(READING_LIST), 8);
      assert.match(String(counts[0]?.['newestItemTimestampUsec']), /^\d{16}$/);
      // a feed read elsewhere is listed with 0, so an app that updates the counts it gets clears its badge
      const blogEntries = await h.entryIds(blog.feedId);
      await h.store.sync.setReadEverywhere({ ids: blogEntries }, true, h.clock.now().toISOString());
      const after = (await app.json('unread-count'))['unreadcounts'] as Json[];
      const zero = after.find((c) => c['id'] === `feed/${blog.feedId}`);
      assert.equal(zero?.['count'], 0);
      assert.equal(after.find((c) => c['id'] === 'user/-/label/Blogs')?.['count'], 0);
      await h.store.sync.setReadEverywhere({ ids: blogEntries }, false, h.clock.now().toISOString());
    });

    it('gives unread ids with xt=read, read ids with s=read and with it=read, as decimal strings', async () => {
      const [n0, n1] = newsIds as [number, number];
      await app.post('edit-tag', { i: [long(n0), String(n1)], a: READ });
      const all = [...newsIds, ...blogIds].sort((a, b) => b - a);
      assert.deepEqual(await refIds(`s=${READING_LIST}&n=1000`), all);
      assert.deepEqual(
        await refIds(`s=${READING_LIST}&xt=${READ}&n=1000`),
        all.filter((id) => id !== n0 && id !== n1),
      );
      assert.deepEqual(await refIds(`s=${READ}&n=1000`), [n1, n0]);
      assert.deepEqual(await refIds(`s=${READING_LIST}&it=${READ}&n=1000`), [n1, n0]);
      assert.deepEqual(await refIds(`s=${READ}&xt=${READ}`), []);
      // the unread state FreshRSS serves, in s, it and xt
      const UNREAD = 'user/-/state/com.google/unread';
      const unread = all.filter((id) => id !== n0 && id !== n1);
      assert.deepEqual(await refIds(`s=${UNREAD}&n=1000`), unread);
      assert.deepEqual(await refIds(`s=${READING_LIST}&it=${UNREAD}&n=1000`), unread);
      assert.deepEqual(await refIds(`s=${READING_LIST}&xt=${UNREAD}&n=1000`), [n1, n0]);
      const refs = (await app.json(`stream/items/ids?s=feed/${blog.feedId}`))['itemRefs'] as Json[];
      assert.equal(typeof refs[0]?.['id'], 'string');
      assert.match(String(refs[0]?.['timestampUsec']), /^\d{16}$/);
      await app.post('edit-tag', { i: [long(n0), String(n1)], r: READ });
    });

    it('pages with n and a string continuation, newest first or oldest first with r=o', async () => {
      const all = [...newsIds, ...blogIds].sort((a, b) => a - b);
      const first = await app.json('stream/items/ids?s=user/-/state/com.google/reading-list&n=3&r=o');
      const c = first['continuation'];
      assert.equal(typeof c, 'string');
      assert.deepEqual(
        (first['itemRefs'] as Json[]).map((r) => Number(r['id'])),
        all.slice(0, 3),
      );
      const rest = await refIds(`s=${READING_LIST}&n=100&r=o&c=${c}`);
      assert.deepEqual(rest, all.slice(3));
      const last = await app.json(`stream/items/ids?s=${READING_LIST}&n=100&r=o&c=${c}`);
      assert.equal(last['continuation'], undefined);
      const newest = await refIds(`s=${READING_LIST}&n=2`);
      assert.deepEqual(newest, all.slice(-2).reverse());
    });

    it('filters by crawl time with ot, not by publication time', async () => {
      const ot = Math.floor(h.clock.now().getTime() / 1000) + 30;
      h.clock.advance(60_000);
      // an entry published long ago, crawled now
      h.serve('/blog.xml', [rssItem('b0', 0), rssItem('b1', 1), rssItem('b2', 2), rssItem('old', -100_000)]);
      await h.poll(h.url('/blog.xml'));
      const old = await h.idOf(blog.feedId, 'old');
      blogIds = await h.entryIds(blog.feedId);
      assert.deepEqual(await refIds(`s=${READING_LIST}&ot=${ot}`), [old]);
      // seconds with a fraction, as older NetNewsWire sent them: the fraction is dropped (FreshRSS)
      assert.deepEqual(await refIds(`s=${READING_LIST}&ot=${ot}.123456`), [old]);
    });

    it("gives stream/contents for a feed (in s or in the path) and a folder, with the apps' item fields", async () => {
      const b1 = await h.idOf(blog.feedId, 'b1');
      await app.post('edit-tag', { i: long(b1), a: [READ, STARRED] });
      const bySParam = await app.json(`stream/contents?s=feed/${blog.feedId}&n=50&output=json`);
      const byPath = await app.json(`stream/contents/${encodeURIComponent(`feed/${blog.feedId}`)}?n=50`);
      // the stream's title is the feed's, not its id
      assert.equal(bySParam['title'], (await h.store.feeds.get(blog.feedId))?.title);
      assert.equal((await app.json('stream/contents/user%2F-%2Flabel%2FBlogs'))['title'], 'Blogs');
      assert.deepEqual(
        items(bySParam).map((i) => i['id']),
        items(byPath).map((i) => i['id']),
      );
      assert.equal(byPath['id'], `feed/${blog.feedId}`);
      const item = items(bySParam).find((i) => i['id'] === long(b1)) as Json;
      assert.equal(item['title'], 'Title b1');
      assert.deepEqual(item['canonical'], [{ href: 'https://example.com/b1' }]);
      assert.deepEqual(item['alternate'], [{ href: 'https://example.com/b1', type: 'text/html' }]);
      assert.deepEqual(item['summary'], { direction: 'ltr', content: '<p>Body of b1</p>' });
      assert.equal(item['published'], Date.UTC(2026, 1, 1, 0, 1) / 1000);
      assert.match(String(item['crawlTimeMsec']), /^\d{13}$/);
      assert.equal(item['timestampUsec'], `${item['crawlTimeMsec']}000`);
      assert.deepEqual(item['categories'], [READING_LIST, 'user/-/label/Blogs', READ, STARRED]);
      assert.deepEqual(item['origin'], {
        streamId: `feed/${blog.feedId}`,
        title: 'Test feed',
        htmlUrl: 'https://example.com/',
      });
      const folder = await app.json('stream/contents/user/-/label/News?n=2');
      assert.equal(items(folder).length, 2);
      assert.equal(typeof folder['continuation'], 'string');
      const starred = await app.json(`stream/contents/${STARRED}`);
      assert.deepEqual(
        items(starred).map((i) => i['id']),
        [long(b1)],
      );
      await app.post('edit-tag', { i: String(b1), r: [READ, STARRED] });
    });

    it('gives stream/items/contents for ids in the long, decimal and bare hex forms', async () => {
      const [b0, b1, b2] = blogIds as [number, number, number];
      const res = await app.post('stream/items/contents', {
        i: [long(b0), String(b1), b2.toString(16).padStart(16, '0'), 'nonsense'],
      });
      assert.equal(res.status, 200);
      const answer = (await res.json()) as Json;
      assert.deepEqual(
        items(answer).map((i) => i['id']),
        [long(b0), long(b1), long(b2)],
      );
    });

    it('stars and unstars, marks read and kept-unread with edit-tag', async () => {
      const [b0] = blogIds as [number];
      await app.post('edit-tag', { i: long(b0), a: STARRED });
      assert.deepEqual(await refIds(`s=${STARRED}`), [b0]);
      // xt=starred leaves the starred out (FreshRSS serves it)
      const everything = await refIds(`s=${READING_LIST}&n=1000`);
      assert.deepEqual(
        await refIds(`s=${READING_LIST}&xt=${STARRED}&n=1000`),
        everything.filter((id) => id !== b0),
      );
      assert.deepEqual(await refIds(`s=${STARRED}&xt=${STARRED}`), []);
      await app.post('edit-tag', { i: long(b0), a: READ });
      assert.deepEqual(await refIds(`s=${READ}`), [b0]);
      await app.post('edit-tag', { i: long(b0), a: 'user/-/state/com.google/kept-unread', r: READ });
      assert.deepEqual(await refIds(`s=${READ}`), []);
      await app.post('edit-tag', { i: long(b0), r: STARRED });
      assert.deepEqual(await refIds(`s=${STARRED}`), []);
    });

    it('marks a stream read up to ts (microseconds) only', async () => {
      const ts = (h.clock.now().getTime() + 1000) * 1000;
      h.clock.advance(60_000);
      h.serve(
        '/news.xml',
        [0, 1, 2, 3, 4, 5].map((i) => rssItem(`n${i}`, i)),
      );
      await h.poll(h.url('/news.xml'));
      const n5 = await h.idOf(news.feedId, 'n5');
      const res = await app.post('mark-all-as-read', { s: 'user/-/label/News', ts: String(ts) });
      assert.equal(await res.text(), 'OK');
      assert.deepEqual(await refIds(`s=feed/${news.feedId}&xt=${READ}`), [n5]);
      await app.post('mark-all-as-read', { s: READING_LIST });
      assert.deepEqual(await refIds(`s=${READING_LIST}&xt=${READ}`), []);
    });

    it('follows with quickadd and subscribe (folder and title), renames, moves, unsubscribes', async () => {
      h.serve('/third.xml', [rssItem('t0', 0)]);
      h.serve('/fourth.xml', [rssItem('f0', 0)]);
      const added = await app.post('subscription/quickadd', { quickadd: h.url('/third.xml') });
      const answer = (await added.json()) as Json;
      assert.equal(answer['numResults'], 1);
      const third = await h.store.feeds.findByUrl(h.url('/third.xml'));
      assert.equal(answer['streamId'], `feed/${third?.id}`);
      assert.equal((await h.store.entries.listByFeed(third?.id ?? 0, 10)).length, 1);
      const sub = await app.post('subscription/edit', {
        ac: 'subscribe',
        s: `feed/${h.url('/fourth.xml')}`,
        a: 'user/-/label/Podcasts',
        t: 'My fourth',
      });
      assert.equal(await sub.text(), 'OK');
      const fourth = await h.store.feeds.findByUrl(h.url('/fourth.xml'));
      const folderOf = async (feedId: number) => {
        const list = (await app.json('subscription/list'))['subscriptions'] as Json[];
        const s = list.find((x) => x['id'] === `feed/${feedId}`);
        return s && [s['title'], (s['categories'] as Json[]).map((c) => c['label'])];
      };
      assert.deepEqual(await folderOf(fourth?.id ?? 0), ['My fourth', ['Podcasts']]);
      await app.post('subscription/edit', { ac: 'edit', s: `feed/${fourth?.id}`, t: 'Renamed' });
      await app.post('subscription/edit', {
        ac: 'edit',
        s: `feed/${fourth?.id}`,
        r: 'user/-/label/Podcasts',
        a: 'user/-/label/News',
      });
      assert.deepEqual(await folderOf(fourth?.id ?? 0), ['Renamed', ['News']]);
      await app.post('subscription/edit', { ac: 'unsubscribe', s: `feed/${fourth?.id}` });
      assert.equal(await folderOf(fourth?.id ?? 0), undefined);
      const bad = await app.post('subscription/quickadd', { quickadd: 'not a url' });
      assert.equal(bad.status, 400);
      // a URL that is no feed: no result, answered 200 as FreshRSS and Miniflux do
      const missing = await app.post('subscription/quickadd', { quickadd: h.url('/no-such-feed.xml') });
      assert.equal(missing.status, 200);
      const none = (await missing.json()) as { numResults: number; error: string };
      assert.equal(none.numResults, 0);
      assert.match(none.error, /404/);
    });

    it('renames and deletes folders; a feed only the deleted folder followed moves to another', async () => {
      assert.equal(
        await (
          await app.post('rename-tag', { s: 'user/-/label/Blogs', dest: 'user/-/label/Weblogs' })
        ).text(),
        'OK',
      );
      const names = async () => ((await app.json('tag/list'))['tags'] as Json[]).map((t) => t['id']);
      assert.ok((await names()).includes('user/-/label/Weblogs'));
      assert.equal(await (await app.post('disable-tag', { s: 'user/-/label/Weblogs' })).text(), 'OK');
      assert.ok(!(await names()).includes('user/-/label/Weblogs'));
      const list = (await app.json('subscription/list'))['subscriptions'] as Json[];
      assert.ok(list.some((s) => s['id'] === `feed/${blog.feedId}`));
    });

    it("merges a folder renamed to another folder's name into it, listed once", async () => {
      h.serve('/merge-a.xml', [rssItem('ma0', 0)]);
      h.serve('/merge-b.xml', [rssItem('mb0', 0)]);
      await app.post('subscription/edit', {
        ac: 'subscribe',
        s: `feed/${h.url('/merge-a.xml')}`,
        a: 'user/-/label/Left',
      });
      await app.post('subscription/edit', {
        ac: 'subscribe',
        s: `feed/${h.url('/merge-b.xml')}`,
        a: 'user/-/label/Right',
      });
      const [a, b] = await Promise.all(
        ['/merge-a.xml', '/merge-b.xml'].map(
          async (path) => (await h.store.feeds.findByUrl(h.url(path)))?.id ?? 0,
        ),
      );
      const answer = await app.post('rename-tag', { s: 'user/-/label/Left', dest: 'user/-/label/Right' });
      assert.equal(await answer.text(), 'OK');
      const tags = ((await app.json('tag/list'))['tags'] as Json[]).map((t) => t['id']);
      assert.equal(tags.filter((id) => id === 'user/-/label/Right').length, 1);
      assert.ok(!tags.includes('user/-/label/Left'));
      const inRight = (
        (await app.json('stream/items/ids?s=user/-/label/Right&n=100'))['itemRefs'] as Json[]
      ).map((r) => Number(r['id']));
      const expected = [...(await h.entryIds(a as number)), ...(await h.entryIds(b as number))];
      assert.deepEqual(inRight.sort(), expected.sort());
    });

    it('refuses ClientLogin after 5 failures from a client, the right password included', async () => {
      const attempt = (password: string) =>
        h.app.request('/api/greader/accounts/ClientLogin', {
          method: 'POST',
          body: new URLSearchParams({ Email: API_USER, Passwd: password }),
        });
      for (let i = 0; i < 5; i++) assert.equal((await attempt('nope nope')).status, 401);
      const limited = await attempt(API_PASSWORD);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
    });
  });
}
