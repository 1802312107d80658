import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_PASSWORD,
  API_USER,
  FEVER_KEY,
  openSyncHarness,
  rssItem,
  type SyncHarness,
} from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

type Body = Record<string, unknown>;

for (const backend of storeBackends()) {
  describe(`fever API (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let news: { feedId: number; channel: { id: number } };
    let blog: { feedId: number; channel: { id: number } };

    /** POST /api/fever?api&<query> with api_key in the form body, as Reeder and Unread send it. */
    const fever = async (query: string, form: Record<string, string> = {}, path = '/api/fever') => {
      const body = new URLSearchParams({ api_key: FEVER_KEY, ...form });
      const res = await h.app.request(`${path}?api${query ? `&${query}` : ''}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Body;
    };
    const unreadIds = async () => String((await fever('unread_item_ids'))['unread_item_ids']);

    before(async () => {
      h = await openSyncHarness(backend);
      h.serve(
        '/news.xml',
        Array.from({ length: 60 }, (_, i) => rssItem(`n${i}`, i)),
      );
      h.serve('/blog.xml', [rssItem('b0', 0), rssItem('b1', 1)]);
      news = await h.follow('/news.xml', 'News');
      blog = await h.follow('/blog.xml', 'Blogs');
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('answers auth 1 for md5("USER:PASSWORD") in either case, at /api/fever and /api/fever.php', async () => {
      const ok = await fever('');
      assert.equal(ok['api_version'], 3);
      assert.equal(ok['auth'], 1);
      assert.equal(typeof ok['last_refreshed_on_time'], 'number');
      const upper = await fever('', { api_key: FEVER_KEY.toUpperCase() }, '/api/fever.php');
      assert.equal(upper['auth'], 1);
    });

    it('answers HTTP 200 with auth 0 and nothing else for a wrong or missing key', async () => {
      const wrong = await fever('groups', { api_key: 'f'.repeat(32) });
      assert.deepEqual(wrong, { api_version: 3, auth: 0, last_refreshed_on_time: 0 });
      const res = await h.app.request('/api/fever?api&items', { method: 'POST' });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as Body)['auth'], 0);
      assert.ok(API_USER && API_PASSWORD);
    });

    it('lists channels as groups and feeds with integer ids, and feeds_groups as id strings', async () => {
      const answer = await fever('groups');
      const groups = answer['groups'] as { id: number; title: string }[];
      assert.deepEqual(
        groups.map((g) => g.title),
        ['News', 'Blogs'],
      );
      assert.ok(!groups.some((g) => g.title === 'Notifications'));
      assert.deepEqual(answer['feeds_groups'], [
        { group_id: news.channel.id, feed_ids: String(news.feedId) },
        { group_id: blog.channel.id, feed_ids: String(blog.feedId) },
      ]);
      const feeds = (await fever('feeds'))['feeds'] as Body[];
      assert.equal(feeds.length, 2);
      const first = feeds[0] as Body;
      assert.equal(first['id'], news.feedId);
      assert.equal(first['title'], 'Test feed');
      assert.equal(first['url'], h.url('/news.xml'));
      assert.equal(first['is_spark'], 0);
      assert.equal(typeof first['last_updated_on_time'], 'number');
      assert.deepEqual((await fever('favicons'))['favicons'], []);
      assert.deepEqual((await fever('links'))['links'], []);
    });

    it("answers favicons with each feed's stored icon as mime;base64, and the feed's favicon_id", async () => {
      // a 1x1 PNG, stored as the poller stores a feed's icon; the other feed has none (a record of none)
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkqGf4DwAEhQGA0lMiVQAAAABJRU5ErkJggg==',
        'base64',
      );
      const now = new Date().toISOString();
      await h.store.icons.save(news.feedId, { contentType: 'image/png', bytes: png }, now);
      await h.store.icons.save(blog.feedId, undefined, now);
      const answer = await fever('favicons');
      assert.deepEqual(answer['favicons'], [
        { id: news.feedId, data: `image/png;base64,${png.toString('base64')}` },
      ]);
      const feeds = (await fever('feeds'))['feeds'] as Body[];
      const faviconOf = (id: number) => feeds.find((feed) => feed['id'] === id)?.['favicon_id'];
      assert.equal(faviconOf(news.feedId), news.feedId);
      assert.equal(faviconOf(blog.feedId), 0);
    });

    it('pages items by 50 with since_id (ascending) and max_id (descending, from the top at 0)', async () => {
      const all = [...(await h.entryIds(news.feedId)), ...(await h.entryIds(blog.feedId))].sort(
        (a, b) => a - b,
      );
      const first = await fever('items', { since_id: '0' });
      const items = first['items'] as Body[];
      assert.equal(first['total_items'], 62);
      assert.deepEqual(
        items.map((item) => item['id']),
        all.slice(0, 50),
      );
      const last = items.at(-1)?.['id'] as number;
      const second = (await fever(`items&since_id=${last}`))['items'] as Body[];
      assert.deepEqual(
        second.map((item) => item['id']),
        all.slice(50),
      );
      const top = (await fever('items&max_id=0'))['items'] as Body[];
      assert.deepEqual(
        top.map((item) => item['id']),
        all.slice(-50).reverse(),
      );
      const below = (await fever(`items&max_id=${all[10]}`))['items'] as Body[];
      assert.deepEqual(
        below.map((item) => item['id']),
        all.slice(0, 10).reverse(),
      );
      const some = (await fever(`items&with_ids=${all[3]},${all[1]},x`))['items'] as Body[];
      assert.deepEqual(
        some.map((item) => item['id']),
        [all[1], all[3]],
      );
    });

    it('gives items with integers where the spec says integers', async () => {
      const b1 = await h.idOf(blog.feedId, 'b1');
      const [item] = (await fever('items', { with_ids: String(b1) }))['items'] as Body[];
      assert.deepEqual(item, {
        id: b1,
        feed_id: blog.feedId,
        title: 'Title b1',
        author: '',
        html: '<p>Body of b1</p>',
        url: 'https://example.com/b1',
        is_saved: 0,
        is_read: 0,
        created_on_time: Date.UTC(2026, 1, 1, 0, 1) / 1000,
      });
    });

    it('marks an item read and unread, saved and unsaved, answering with the id lists', async () => {
      const b0 = await h.idOf(blog.feedId, 'b0');
      const read = await fever('', { mark: 'item', as: 'read', id: String(b0) });
      assert.ok(!String(read['unread_item_ids']).split(',').includes(String(b0)));
      const [item] = (await fever(`items&with_ids=${b0}`))['items'] as Body[];
      assert.equal(item?.['is_read'], 1);
      await fever('', { mark: 'item', as: 'unread', id: String(b0) });
      assert.ok((await unreadIds()).split(',').includes(String(b0)));
      const saved = await fever('', { mark: 'item', as: 'saved', id: String(b0) });
      assert.equal(saved['saved_item_ids'], String(b0));
      assert.equal(((await fever(`items&with_ids=${b0}`))['items'] as Body[])[0]?.['is_saved'], 1);
      const unsaved = await fever('', { mark: 'item', as: 'unsaved', id: String(b0) });
      assert.equal(unsaved['saved_item_ids'], '');
    });

    it('marks a feed read up to `before` only: what came later stays unread', async () => {
      const before = Math.floor(h.clock.now().getTime() / 1000);
      h.clock.advance(120_000);
      h.serve('/blog.xml', [rssItem('b0', 0), rssItem('b1', 1), rssItem('b2', 2)]);
      await h.poll(h.url('/blog.xml'));
      const [b0, b1, b2] = await Promise.all(['b0', 'b1', 'b2'].map((g) => h.idOf(blog.feedId, g)));
      await fever('', { mark: 'feed', as: 'read', id: String(blog.feedId), before: String(before) });
      const unread = (await unreadIds()).split(',');
      assert.ok(!unread.includes(String(b0)) && !unread.includes(String(b1)));
      assert.ok(unread.includes(String(b2)));
    });

    it('marks with `before` the whole second: last_refreshed_on_time covers that refresh', async () => {
      // entries seen at T.757 s: an app sends last_refreshed_on_time, T, as `before` to mark all read
      h.clock.set(new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000 + 60_757).toISOString());
      h.serve('/blog.xml', [rssItem('b0', 0), rssItem('b1', 1), rssItem('b2', 2), rssItem('b3', 3)]);
      await h.poll(h.url('/blog.xml'));
      const b3 = await h.idOf(blog.feedId, 'b3');
      assert.ok((await unreadIds()).split(',').includes(String(b3)));
      const refreshed = Math.floor(h.clock.now().getTime() / 1000);
      h.clock.advance(5_000);
      await fever('', { mark: 'feed', as: 'read', id: String(blog.feedId), before: String(refreshed) });
      assert.ok(!(await unreadIds()).split(',').includes(String(b3)));
    });

    it('marks a group read, and group 0 (everything)', async () => {
      const now = String(Math.floor(h.clock.now().getTime() / 1000));
      await fever('', { mark: 'group', as: 'read', id: String(news.channel.id), before: now });
      const unread = (await unreadIds()).split(',').map(Number);
      const newsIds = new Set(await h.entryIds(news.feedId));
      assert.ok(unread.length > 0 && !unread.some((id) => newsIds.has(id)));
      await fever('', { mark: 'group', as: 'read', id: '0', before: now });
      assert.equal(await unreadIds(), '');
    });

    it('puts every listed feed in a group, a feed kept only for its saved entries too (Read You)', async () => {
      h.serve('/gone.xml', [rssItem('g0', 0), rssItem('g1', 1)]);
      const gone = await h.follow('/gone.xml', 'Gone');
      const [saved] = await h.entryIds(gone.feedId);
      await fever('', { mark: 'item', as: 'saved', id: String(saved) });
      await h.store.channels.unsubscribe(gone.channel.id, gone.feedId);
      const answer = await fever('groups');
      const feeds = ((await fever('feeds'))['feeds'] as Body[]).map((feed) => feed['id']);
      assert.ok(feeds.includes(gone.feedId), 'the feed of a saved entry is listed');
      const grouped = (answer['feeds_groups'] as { group_id: number; feed_ids: string }[]).flatMap((g) =>
        g.feed_ids === '' ? [] : g.feed_ids.split(',').map(Number),
      );
      assert.deepEqual(
        feeds.filter((id) => !grouped.includes(id as number)),
        [],
      );
      const groups = answer['groups'] as { id: number; title: string }[];
      const own = groups.find((g) => g.title === 'Not in a channel');
      assert.ok(own && own.id <= 2 ** 31 - 1 && !groups.some((g) => g !== own && g.id === own.id));
      // marking that group read marks nothing
      const unreadBefore = await unreadIds();
      await fever('', { mark: 'group', as: 'read', id: String(own.id), before: '2000000000' });
      assert.equal(await unreadIds(), unreadBefore);
    });

    it('refuses every key after 5 failed ones from a client, the right key included', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await fever('', { api_key: '0'.repeat(32) }))['auth'], 0);
      assert.equal((await fever(''))['auth'], 0);
      h.clock.advance(16 * 60_000);
      assert.equal((await fever(''))['auth'], 1);
    });
  });
}
