// What real apps and a review found in the Google Reader API (issue 22): the Atom stream a terminal
// client reads, NetNewsWire's subscribe after quickadd, the label "notifications", URLs that must not
// reach an app, and icons served from tidings' own origin.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { parseFeed } from '../../src/parse/index.js';
import { openSyncHarness, rssItem, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends, testEntry, testPoll } from '../helpers/temp-store.js';
import { type GReaderClient, type Json, signIn } from './harness.js';

const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';
const READING_LIST = 'user/-/state/com.google/reading-list';
const ITEM_ID = /^tag:google\.com,2005:reader\/item\/[0-9a-f]{16}$/;
const long = (id: number) => `tag:google.com,2005:reader/item/${id.toString(16).padStart(16, '0')}`;
// a 1x1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The XML well-formedness errors of a document (saxes, strict, with namespaces). */
function xmlErrors(text: string): string[] {
  const errors: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (error) => errors.push(error.message));
  parser.write(text).close();
  return errors;
}

for (const backend of storeBackends()) {
  describe(`google reader for the apps (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let app: GReaderClient;
    let news: { feedId: number };
    let newsIds: number[];

    const subscriptions = async () =>
      (await app.json('subscription/list?output=json'))['subscriptions'] as Json[];
    const subscriptionOf = async (feedId: number) =>
      (await subscriptions()).find((s) => s['id'] === `feed/${feedId}`);

    before(async () => {
      h = await openSyncHarness(backend);
      h.serve(
        '/news.xml',
        [0, 1, 2].map((i) => rssItem(`n${i}`, i)),
      );
      news = await h.follow('/news.xml', 'News');
      newsIds = await h.entryIds(news.feedId);
      app = await signIn(h);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    describe('the Atom stream', () => {
      it('serves /reader/atom/feed%2F<id>?n=20 as Atom that parses, with Google Reader ids', async () => {
        const res = await app.atom(`feed%2F${news.feedId}?n=20`);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^application\/atom\+xml/);
        const text = await res.text();
        assert.deepEqual(xmlErrors(text), []);
        assert.match(text, /xmlns:gr="http:\/\/www\.google\.com\/schemas\/reader\/atom\/"/);
        const parsed = parseFeed(text);
        assert.equal(parsed.version, 'atom10');
        assert.equal(parsed.bozo, false);
        assert.equal(parsed.feed.title, 'Test feed');
        assert.equal(parsed.feed.id, `tag:google.com,2005:reader/feed/${news.feedId}`);
        assert.deepEqual(
          parsed.entries.map((e) => e.id),
          [...newsIds].reverse().map(long),
        );
        const n2 = await h.idOf(news.feedId, 'n2');
        const first = parsed.entries.find((e) => e.id === long(n2));
        assert.match(first?.id ?? '', ITEM_ID);
        assert.equal(first?.title, 'Title n2');
        assert.equal(first?.link, 'https://example.com/n2');
        assert.equal(first?.content?.[0]?.value, '<p>Body of n2</p>');
        assert.equal(first?.published, '2026-02-01T00:02:00Z');
        assert.match(text, new RegExp(`<id gr:original-id="n2">${long(n2)}</id>`));
        assert.match(text, new RegExp(`<source gr:stream-id="feed/${news.feedId}">`));
        assert.match(text, /gr:crawl-timestamp-msec="\d{13}"/);
        const terms = (first?.categories ?? []).map((c) => c.term);
        assert.deepEqual(terms, [READING_LIST, 'user/-/label/News']);
        assert.equal((await h.app.request(`/api/greader/reader/atom/feed%2F${news.feedId}`)).status, 401);
      });

      it('pages with n and gr:continuation, oldest first with r=o', async () => {
        const ids = async (query: string) => {
          const text = await (await app.atom(query)).text();
          const continuation = /<gr:continuation>([^<]+)<\/gr:continuation>/.exec(text)?.[1];
          return { ids: parseFeed(text).entries.map((e) => e.id), continuation };
        };
        const first = await ids(`feed%2F${news.feedId}?n=2&r=o`);
        assert.deepEqual(first.ids, newsIds.slice(0, 2).map(long));
        assert.ok(first.continuation);
        const rest = await ids(`feed%2F${news.feedId}?n=2&r=o&c=${first.continuation}`);
        assert.deepEqual(rest, { ids: [long(newsIds[2] as number)], continuation: undefined });
      });

      it('serves labels and the state streams, with read and starred as categories, and xt', async () => {
        const [n0, n1] = newsIds as [number, number];
        await app.post('edit-tag', { i: [long(n0)], a: [READ, STARRED] });
        const entriesOf = async (path: string) => parseFeed(await (await app.atom(path)).text()).entries;
        const label = await entriesOf('user%2F-%2Flabel%2FNews');
        assert.equal(label.length, 3);
        const read = label.find((e) => e.id === long(n0));
        assert.deepEqual(
          read?.categories?.map((c) => [c.term, c.scheme, c.label]),
          [
            [READING_LIST, 'http://www.google.com/reader/', 'reading-list'],
            ['user/-/label/News', 'http://www.google.com/reader/', 'News'],
            [READ, 'http://www.google.com/reader/', 'read'],
            [STARRED, 'http://www.google.com/reader/', 'starred'],
          ],
        );
        assert.deepEqual(
          (await entriesOf(STARRED)).map((e) => e.id),
          [long(n0)],
        );
        assert.deepEqual(
          (await entriesOf(`${READ}?n=20`)).map((e) => e.id),
          [long(n0)],
        );
        const unread = await entriesOf(`${encodeURIComponent(READING_LIST)}?xt=${encodeURIComponent(READ)}`);
        assert.ok(unread.some((e) => e.id === long(n1)));
        assert.ok(!unread.some((e) => e.id === long(n0)));
        assert.equal((await entriesOf('user%2F-%2Flabel%2FNo%20such')).length, 0);
        await app.post('edit-tag', { i: [long(n0)], r: [READ, STARRED] });
      });
    });

    describe('subscribing', () => {
      it('answers subscribe of a feed followed already (NetNewsWire after quickadd) with 200, changing nothing else', async () => {
        h.serve('/nnw.xml', [rssItem('w0', 0), rssItem('w1', 1)]);
        const added = (await (
          await app.post('subscription/quickadd', { quickadd: h.url('/nnw.xml') })
        ).json()) as Json;
        const streamId = String(added['streamId']);
        const feedId = Number(streamId.slice('feed/'.length));
        const listed = await subscriptions();
        const feed = await h.store.feeds.get(feedId);
        const again = await app.post('subscription/edit', { ac: 'subscribe', s: streamId });
        assert.equal(again.status, 200);
        assert.equal(await again.text(), 'OK');
        const byUrl = await app.post('subscription/edit', {
          ac: 'subscribe',
          s: `feed/${h.url('/nnw.xml')}`,
        });
        assert.equal(byUrl.status, 200);
        assert.deepEqual(await subscriptions(), listed);
        // not fetched again
        assert.equal((await h.store.feeds.get(feedId))?.lastCheckedAt, feed?.lastCheckedAt);
        assert.equal((await h.entryIds(feedId)).length, 2);
        // what the app asks with it is applied: a title and a folder, which the feed moves to from the
        // one quickadd put it in (as FreshRSS and Miniflux, whose feeds have one folder)
        await app.post('subscription/edit', {
          ac: 'subscribe',
          s: streamId,
          t: 'Named by the app',
          a: 'user/-/label/Later',
        });
        const after = await subscriptionOf(feedId);
        assert.equal(after?.['title'], 'Named by the app');
        // the items say it too: apps print origin.title beside each one
        const contents = await app.json(`stream/contents/${encodeURIComponent(streamId)}`);
        assert.equal(contents['title'], 'Named by the app');
        const items = contents['items'] as Json[];
        assert.ok(items.length > 0);
        for (const item of items) assert.equal((item['origin'] as Json)['title'], 'Named by the app');
        const labels = async () =>
          (((await subscriptionOf(feedId))?.['categories'] ?? []) as Json[]).map((c) => c['label']).sort();
        assert.deepEqual(await labels(), ['Later']);
        // Read You: quickadd, then ac=edit with a= the folder chosen: a move too
        await app.post('subscription/edit', { ac: 'edit', s: streamId, a: 'user/-/label/Tech' });
        assert.deepEqual(await labels(), ['Tech']);
        // read state stays the person's whatever folders the feed is in: an entry read before is read in
        // a folder added now (a new folder made every old entry of the feed unread in every app)
        const [read0] = await h.entryIds(feedId);
        await app.post('edit-tag', { i: [long(read0 as number)], a: [READ] });
        const unreadOfFeed = async () =>
          ((await app.json('unread-count'))['unreadcounts'] as Json[]).find((c) => c['id'] === streamId)?.[
            'count'
          ];
        assert.equal(await unreadOfFeed(), 1);
        // a feed a person keeps in two folders gets one more: nothing is taken away
        await h.store.channels.subscribe(
          (await h.store.channels.list()).find((ch) => ch.name === 'Home')?.id ?? 0,
          feedId,
          new Date().toISOString(),
        );
        await app.post('subscription/edit', { ac: 'edit', s: streamId, a: 'user/-/label/Third' });
        assert.deepEqual(await labels(), ['Home', 'Tech', 'Third']);
        assert.equal(await unreadOfFeed(), 1, 'the entry read before is read in the new folders');
        const third = ((await app.json('unread-count'))['unreadcounts'] as Json[]).find(
          (c) => c['id'] === 'user/-/label/Third',
        );
        assert.equal(third?.['count'], 1);
        const unknown = await app.post('subscription/edit', { ac: 'subscribe', s: 'feed/987654' });
        assert.equal(unknown.status, 404);
      });

      it('keeps a feed in the label "notifications" an ordinary folder of the apps', async () => {
        h.serve('/alerts.xml', [rssItem('a0', 0)]);
        const res = await app.post('subscription/edit', {
          ac: 'subscribe',
          s: `feed/${h.url('/alerts.xml')}`,
          a: 'user/-/label/notifications',
        });
        assert.equal(res.status, 200);
        const feed = await h.store.feeds.findByUrl(h.url('/alerts.xml'));
        const feedId = feed?.id ?? 0;
        assert.deepEqual((await subscriptionOf(feedId))?.['categories'], [
          { id: 'user/-/label/notifications', label: 'notifications' },
        ]);
        const tags = ((await app.json('tag/list'))['tags'] as Json[]).map((t) => t['id']);
        assert.ok(tags.includes('user/-/label/notifications'));
        const ids = (await app.json('stream/items/ids?s=user/-/label/notifications'))['itemRefs'] as Json[];
        assert.deepEqual(
          ids.map((r) => Number(r['id'])),
          await h.entryIds(feedId),
        );
        const counts = (await app.json('unread-count'))['unreadcounts'] as Json[];
        assert.equal(counts.find((c) => c['id'] === 'user/-/label/notifications')?.['count'], 1);
        // Microsub's own notifications channel is another one, which the apps do not see
        const microsub = (await h.store.channels.list()).find((ch) => ch.uid === 'notifications');
        const inMicrosub = (await h.store.channels.listSubscriptions()).filter(
          (s) => s.channelId === microsub?.id,
        );
        assert.equal(
          inMicrosub.some((s) => s.feedId === feedId),
          false,
        );
        // and it renames and moves like any folder
        await app.post('rename-tag', { s: 'user/-/label/notifications', dest: 'user/-/label/Alerts' });
        assert.deepEqual((await subscriptionOf(feedId))?.['categories'], [
          { id: 'user/-/label/Alerts', label: 'Alerts' },
        ]);
        await app.post('subscription/edit', {
          ac: 'edit',
          s: `feed/${feedId}`,
          r: 'user/-/label/Alerts',
          a: 'user/-/label/notifications',
        });
        assert.deepEqual((await subscriptionOf(feedId))?.['categories'], [
          { id: 'user/-/label/notifications', label: 'notifications' },
        ]);
      });
    });

    describe('URLs from feeds', () => {
      let evil: { feedId: number; entryId: number };

      before(async () => {
        const now = h.clock.now().toISOString();
        const feed = await h.store.feeds.add('https://evil.example/feed', now);
        const channel = (await h.store.channels.list()).find((c) => c.name === 'News');
        await h.store.channels.subscribe(channel?.id ?? 0, feed.id, now);
        await h.store.feeds.update(feed.id, {
          title: 'Evil',
          siteUrl: 'javascript:alert(1)',
          iconUrl: 'data:image/png;base64,AAAA',
        });
        const entry = testEntry('evil-1', {
          url: 'javascript:alert(2)',
          contentHtml: '<p>harmless</p>',
          enclosures: [
            { href: 'data:audio/mpeg;base64,AAAA', type: 'audio/mpeg', length: '4' },
            { href: 'JavaScript:alert(3)', type: 'audio/mpeg' },
            { href: 'https://evil.example/ok.mp3', type: 'audio/mpeg', length: '5' },
          ],
        });
        const { insertedIds } = await h.store.polling.record(testPoll(feed.id, [entry], now));
        evil = { feedId: feed.id, entryId: insertedIds[0] as number };
      });

      it('gives apps no javascript: or data: link, enclosure, htmlUrl or iconUrl', async () => {
        const contents = await app.json(`stream/contents/feed%2F${evil.feedId}`);
        const item = (contents['items'] as Json[])[0] as Json;
        // one empty link each: Read You and Fluent Reader fail a sync on an empty list
        assert.deepEqual(item['canonical'], [{ href: '' }]);
        assert.deepEqual(item['alternate'], [{ href: '', type: 'text/html' }]);
        // the length a number, as FreshRSS sends it
        assert.deepEqual(item['enclosure'], [
          { href: 'https://evil.example/ok.mp3', type: 'audio/mpeg', length: 5 },
        ]);
        assert.equal((item['origin'] as Json)['htmlUrl'], 'https://evil.example/feed');
        const listed = await subscriptionOf(evil.feedId);
        assert.equal(listed?.['htmlUrl'], 'https://evil.example/feed');
        assert.equal(listed?.['iconUrl'], '');
        const byId = await app.post('stream/items/contents', { i: String(evil.entryId) });
        const atom = await (await app.atom(`feed%2F${evil.feedId}`)).text();
        for (const text of [JSON.stringify(contents), JSON.stringify(listed), await byId.text(), atom]) {
          assert.doesNotMatch(text, /javascript:|data:/i);
        }
        assert.match(
          atom,
          /<link rel="enclosure" href="https:\/\/evil\.example\/ok\.mp3" type="audio\/mpeg" length="5"\/>/,
        );
      });
    });

    describe('icons', () => {
      before(async () => {
        const now = h.clock.now().toISOString();
        await h.store.icons.save(news.feedId, { contentType: 'image/png', bytes: PNG }, now);
        await h.store.feeds.update(news.feedId, { iconUrl: 'https://publisher.example/icon.png' });
        // the feeds with icons are read again after a minute
        h.clock.advance(61_000);
      });

      it("gives iconUrl on tidings' origin, loadable without a session, and none for a feed without an icon", async () => {
        const list = await subscriptions();
        assert.doesNotMatch(JSON.stringify(list), /publisher\.example/);
        const iconUrl = String(list.find((s) => s['id'] === `feed/${news.feedId}`)?.['iconUrl']);
        assert.match(iconUrl, new RegExp(`^http://localhost/feed-icons/${news.feedId}/[A-Za-z0-9_-]{22}$`));
        assert.ok(list.filter((s) => s['id'] !== `feed/${news.feedId}`).every((s) => s['iconUrl'] === ''));
        const icon = await h.app.request(new URL(iconUrl).pathname);
        assert.equal(icon.status, 200);
        assert.equal(icon.headers.get('content-type'), 'image/png');
        assert.deepEqual(Buffer.from(await icon.arrayBuffer()), PNG);
        const etag = icon.headers.get('etag') ?? '';
        const cached = await h.app.request(new URL(iconUrl).pathname, { headers: { 'if-none-match': etag } });
        assert.equal(cached.status, 304);
      });

      it('refuses icon URLs it did not sign, and writes https behind a proxy that says so', async () => {
        const list = await subscriptions();
        const path = new URL(String(list.find((s) => s['id'] === `feed/${news.feedId}`)?.['iconUrl']))
          .pathname;
        const signature = path.split('/').at(-1) as string;
        const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
        for (const wrong of [
          `/feed-icons/${news.feedId}/${flipped}`,
          `/feed-icons/${news.feedId + 1}/${signature}`,
          `/feed-icons/${news.feedId}`,
          `/feed-icons/0/${signature}`,
          `/feed-icons/abc/${signature}`,
        ])
          assert.equal((await h.app.request(wrong)).status, 404, wrong);
        const proxied = await h.app.request('/api/greader/reader/api/0/subscription/list', {
          headers: { authorization: `GoogleLogin auth=${app.token}`, 'x-forwarded-proto': 'https' },
        });
        assert.match(JSON.stringify(await proxied.json()), /"iconUrl":"https:\/\/localhost\/feed-icons\//);
      });
    });
  });
}
