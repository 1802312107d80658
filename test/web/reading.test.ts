import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '../../src/model/stored.js';
import type { TestServer } from '../helpers/http-server.js';
import { startFixtures } from './fixtures.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

// The everyday reader: list mode, entry pages with previous/next, All unread, per-feed counts in the
// sidebar, mark all read with Undo (issue 16).
describe('web: reading views', () => {
  let h: WebHarness;
  let server: TestServer & { feedUrl: string };
  let client: Client;
  let channel: Channel;
  let feedId: number;
  let secondId: number;

  const timeline = (query: { unreadOnly?: boolean; feedId?: number } = {}) =>
    h.store.reading.timeline({ channelId: channel.id, limit: 100, ...query });
  const hrefs = (text: string, pattern: RegExp) =>
    [...text.matchAll(pattern)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));

  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
    await client.post('/subscriptions/follow', { url: server.feedUrl, channel: '', new_channel: 'News' });
    channel = (await h.store.channels.list()).find((ch) => ch.name === 'News') as Channel;
    await client.post('/subscriptions/follow', { url: `${server.url}/second.xml`, channel: channel.uid });
    feedId = (await h.store.feeds.findByUrl(server.feedUrl))?.id ?? 0;
    secondId = (await h.store.feeds.findByUrl(`${server.url}/second.xml`))?.id ?? 0;
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('switches to the list of titles and remembers it in a cookie', async () => {
    await client.get(`/c/${channel.uid}`);
    const switched = await client.post('/mode', { mode: 'list', return: `/c/${channel.uid}` });
    assert.equal(switched.status, 303);
    assert.equal(switched.headers.get('location'), `/c/${channel.uid}`);
    assert.equal(client.cookies.get('tidings_mode'), 'list');
    const page = await client.get(`/c/${channel.uid}`);
    assert.match(page.text, /data-mode="list"/);
    // titles with a line of summary, not the content
    assert.match(
      page.text,
      /<span class="row-title" dir="auto">Story 0<\/span><span class="row-snippet" dir="auto">Body of story 0/,
    );
    assert.doesNotMatch(page.text, /<img loading="lazy"/);
    assert.equal((await client.post('/mode', { mode: 'cards' })).status, 400);
  });

  it('opens an entry on its own page, marks it read there, and links previous and next', async () => {
    const entries = (await timeline()).entries;
    const [first, second, third] = entries;
    assert.ok(first && second && third);
    const page = await client.get(`/c/${channel.uid}/e/${second.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1 class="entry-title entry-page-title" dir="auto">Story 1<\/h1>/);
    assert.match(page.text, /Body of story 1 about harbours/);
    assert.equal((await h.store.reading.entriesById(channel.id, [second.id]))[0]?.isRead, true);
    assert.deepEqual(hrefs(page.text, /href="([^"]+)" rel="prev"/g)[0], `/c/${channel.uid}/e/${first.id}`);
    assert.deepEqual(hrefs(page.text, /href="([^"]+)" rel="next"/g)[0], `/c/${channel.uid}/e/${third.id}`);
    assert.equal((await client.get(`/c/${channel.uid}/e/999999`)).status, 404);
  });

  it('keeps the view of the list in previous/next: one feed, unread only', async () => {
    const unread = (await timeline({ unreadOnly: true })).entries;
    const [a, b] = unread;
    assert.ok(a && b);
    const page = await client.get(`/c/${channel.uid}/e/${a.id}?unread=1`);
    assert.deepEqual(
      hrefs(page.text, /href="([^"]+)" rel="next"/g)[0],
      `/c/${channel.uid}/e/${b.id}?unread=1`,
    );
    const only = (await timeline({ feedId: secondId })).entries[0];
    assert.ok(only);
    const single = await client.get(`/c/${channel.uid}/e/${only.id}?feed=${secondId}`);
    assert.match(single.text, /<span class="muted">Next →<\/span>/);
    assert.match(single.text, /<span class="muted">← Previous<\/span>/);
  });

  it('shows All unread across channels and opens its entries, marking them read', async () => {
    const home = await client.get('/all');
    assert.equal(home.status, 200);
    assert.match(home.text, /<h1>All unread/);
    const unread = (await timeline({ unreadOnly: true })).entries;
    const [a, b] = unread;
    assert.ok(a && b);
    assert.match(home.text, new RegExp(`href="/all/e/${a.id}"`));
    const page = await client.get(`/all/e/${a.id}`);
    assert.equal(page.status, 200);
    assert.equal((await h.store.reading.entriesById(channel.id, [a.id]))[0]?.isRead, true);
    assert.deepEqual(hrefs(page.text, /href="([^"]+)" rel="next"/g)[0], `/all/e/${b.id}?from=${a.id}`);
    const next = await client.get(`/all/e/${b.id}?from=${a.id}`);
    assert.deepEqual(hrefs(next.text, /href="([^"]+)" rel="prev"/g)[0], `/all/e/${a.id}`);
  });

  it('lists each channel with its feeds and their unread counts in the sidebar, and a per-feed view', async () => {
    const unreadMain = (await timeline({ unreadOnly: true, feedId })).entries.length;
    const page = await client.get(`/c/${channel.uid}?feed=${secondId}`);
    assert.match(
      page.text,
      new RegExp(
        `data-feed="${feedId}"><span class="name"><span class="feed-icon none"></span>Test feed</span><span class="count" data-unread="true" data-count="feed:${channel.uid}:${feedId}">${unreadMain}</span>`,
      ),
    );
    assert.match(
      page.text,
      new RegExp(`href="/c/${channel.uid}\\?feed=${secondId}" aria-current="page" data-feed="${secondId}"`),
    );
    assert.match(page.text, /Second feed story/);
    assert.doesNotMatch(page.text, /Story 3</);
    assert.match(page.text, /Mark feed as read/);
  });

  it('marks a feed read, offers Undo, and the Undo marks exactly those entries unread again', async () => {
    const unread = (await timeline({ unreadOnly: true })).entries;
    const before = unread.map((e) => e.id);
    const others = unread.filter((e) => e.feedId !== feedId).map((e) => e.id);
    const marked = await client.post(`/c/${channel.uid}/read-all`, {
      feed: String(feedId),
      return: `/c/${channel.uid}?feed=${feedId}`,
    });
    assert.equal(marked.status, 303);
    const location = marked.headers.get('location') ?? '';
    assert.match(location, new RegExp(`^/c/${channel.uid}\\?feed=${feedId}&undo=[\\w-]+$`));
    assert.deepEqual(
      (await timeline({ unreadOnly: true })).entries.map((e) => e.id),
      others,
    );
    const page = await client.get(location);
    assert.match(page.text, new RegExp(`${before.length - others.length} entries marked read\\.`));
    const undo = hrefs(page.text, /action="(\/undo\/[^"]+)"/g)[0];
    assert.ok(undo);
    const undone = await client.post(undo, { return: `/c/${channel.uid}` });
    assert.equal(undone.status, 303);
    assert.deepEqual(
      (await timeline({ unreadOnly: true })).entries.map((e) => e.id),
      before,
    );
    // an undo happens once
    const again = await client.post(undo, { return: `/c/${channel.uid}` });
    assert.equal(again.status, 303);
    assert.deepEqual((await timeline({ unreadOnly: true })).entries.length, before.length);
  });

  it('marks all read from All unread and up to an entry, each with its Undo', async () => {
    const before = (await timeline({ unreadOnly: true })).entries.map((e) => e.id);
    const all = await client.post('/all/read-all', { return: '/all' });
    const location = all.headers.get('location') ?? '';
    assert.match(location, /^\/all\?undo=/);
    assert.equal((await timeline({ unreadOnly: true })).entries.length, 0);
    const undo = hrefs((await client.get(location)).text, /action="(\/undo\/[^"]+)"/g)[0] ?? '';
    await client.post(undo, { return: '/all' });
    assert.deepEqual(
      (await timeline({ unreadOnly: true })).entries.map((e) => e.id),
      before,
    );
    const target = before[4] ?? 0;
    const upTo = await client.post(`/c/${channel.uid}/entries/${target}/read-up-to`, {
      return: `/c/${channel.uid}`,
    });
    assert.match(upTo.headers.get('location') ?? '', /undo=/);
    assert.deepEqual(
      (await timeline({ unreadOnly: true })).entries.map((e) => e.id),
      before.slice(0, 4),
    );
  });

  it("serves a feed's stored icon from tidings itself, with an ETag and Cache-Control, and shows it in the sidebar", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await h.store.icons.save(feedId, { contentType: 'image/png', bytes: png }, new Date().toISOString());
    const icon = await client.get(`/icons/${feedId}`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/png');
    assert.equal(icon.headers.get('cache-control'), 'private, max-age=86400');
    const etag = icon.headers.get('etag') ?? '';
    assert.match(etag, /^"[0-9a-f]{20}"$/);
    assert.equal((await client.get(`/icons/${feedId}`, { 'if-none-match': etag })).status, 304);
    assert.equal((await client.get(`/icons/${secondId}`)).status, 404);
    assert.equal((await client.get('/icons/nope')).status, 404);
    const page = await client.get(`/c/${channel.uid}`);
    assert.match(page.text, new RegExp(`<img class="feed-icon" src="/icons/${feedId}"`));
  });
  // last: it adds hundreds of subscriptions
  it("lists only the current channel's feeds in the sidebar once there are hundreds of them", async () => {
    const big = await h.store.channels.create('Many');
    const now = new Date().toISOString();
    for (let i = 0; i < 201; i++) {
      const feed = await h.store.feeds.add(`https://example.org/many-${i}.xml`, now);
      await h.store.channels.subscribe(big.id, feed.id, now);
    }
    const page = await client.get(`/c/${channel.uid}`);
    assert.equal(page.status, 200);
    // the current channel lists its feeds; the other says how many it has and links to it
    assert.match(page.text, new RegExp(`data-feed="${feedId}"`));
    assert.doesNotMatch(page.text, /many-17\.xml/);
    assert.match(page.text, new RegExp(`<a class="feeds-folded" href="/c/${big.uid}">201 feeds</a>`));
    const many = await client.get(`/c/${big.uid}`);
    assert.match(many.text, /many-17\.xml/);
    assert.doesNotMatch(many.text, new RegExp(`data-feed="${feedId}"`));
  });
});
