import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '../../src/model/stored.js';
import type { TestServer } from '../helpers/http-server.js';
import { startFixtures } from './fixtures.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

describe('web: reader', () => {
  let h: WebHarness;
  let server: TestServer & { feedUrl: string };
  let client: Client;
  let channel: Channel;
  let feedId: number;

  const timeline = (query: { unreadOnly?: boolean } = {}) =>
    h.store.reading.timeline({ channelId: channel.id, limit: 100, ...query });

  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
    const followed = await client.post('/subscriptions/follow', {
      url: server.feedUrl,
      channel: '',
      new_channel: 'News',
    });
    assert.equal(followed.status, 303);
    channel = (await h.store.channels.list()).find((ch) => ch.name === 'News') as Channel;
    feedId = (await h.store.feeds.findByUrl(server.feedUrl))?.id ?? 0;
    assert.equal(followed.headers.get('location'), `/c/${channel.uid}?feed=${feedId}`);
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('redirects / to All unread and shows a timeline newest first with lazy images', async () => {
    const home = await client.get('/');
    assert.equal(home.status, 303);
    assert.equal(home.headers.get('location'), '/all');
    const page = await client.get(`/c/${channel.uid}`);
    assert.equal(page.status, 200);
    assert.ok(page.text.indexOf('Story 0') < page.text.indexOf('Story 1'));
    assert.match(page.text, /<img loading="lazy" alt="" src="http:\/\/127\.0\.0\.1:\d+\/img\/0\.png"/);
    assert.match(page.text, /Body of story 0 about lighthouses/);
    assert.match(
      page.text,
      new RegExp(`<span class="count" data-unread="true" data-count="channel:${channel.uid}">25</span>`),
    );
    // the title starts with the view's count, which the script keeps equal to the sidebar's
    assert.match(
      page.text,
      new RegExp(
        `<title data-title-count="channel:${channel.uid}" data-title="News · tidings">\\(25\\) News · tidings</title>`,
      ),
    );
    assert.match(page.text, /Test feed/);
  });

  it('pages with the timeline cursors: Older, then Newer', async () => {
    const first = await client.get(`/c/${channel.uid}`);
    const older = /href="([^"]*after=[^"]+)"/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(older);
    const second = await client.get(older);
    assert.match(second.text, /Story 24/);
    assert.doesNotMatch(second.text, /Story 0</);
    assert.match(second.text, /before=/);
  });

  it('marks an entry read and unread, with a redirect back or JSON for the script', async () => {
    const [entry] = (await timeline()).entries;
    assert.ok(entry);
    const back = `/c/${channel.uid}?unread=1`;
    const read = await client.post(`/c/${channel.uid}/entries/${entry.id}/read`, { read: '1', return: back });
    assert.equal(read.status, 303);
    assert.equal(read.headers.get('location'), back);
    assert.equal((await h.store.reading.entriesById(channel.id, [entry.id]))[0]?.isRead, true);
    const json = await client.post(
      `/c/${channel.uid}/entries/${entry.id}/read`,
      { read: '0' },
      { accept: 'application/json' },
    );
    assert.equal(json.status, 200);
    // every count the page draws, by the key of each drawn number, for the page's script
    assert.deepEqual(JSON.parse(json.text), {
      ok: true,
      message: 'Marked unread.',
      channel: channel.uid,
      unread: 25,
      counts: {
        unread: {
          all: 25,
          'channel:notifications': 0,
          [`channel:${channel.uid}`]: 25,
          [`feed:${channel.uid}:${feedId}`]: 25,
        },
        saved: 0,
      },
    });
    assert.equal((await h.store.reading.entriesById(channel.id, [entry.id]))[0]?.isRead, false);
  });

  it('refuses to redirect anywhere but this site after an action', async () => {
    const [entry] = (await timeline()).entries;
    const answer = await client.post(`/c/${channel.uid}/entries/${entry?.id}/read`, {
      read: '0',
      return: '//evil.example/',
    });
    assert.equal(answer.headers.get('location'), `/c/${channel.uid}`);
  });

  it('opens an entry: marks it read and redirects to the original', async () => {
    const entry = (await timeline()).entries[3];
    assert.ok(entry);
    const answer = await client.get(`/c/${channel.uid}/open/${entry.id}`);
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get('location'), entry.url);
    assert.equal((await h.store.reading.entriesById(channel.id, [entry.id]))[0]?.isRead, true);
  });

  it('shows only unread entries in the unread view, and one feed in the per-source view', async () => {
    const page = await client.get(`/c/${channel.uid}?unread=1`);
    assert.doesNotMatch(page.text, />Story 3</);
    assert.match(page.text, />Story 2</);
    await client.post('/subscriptions/follow', { url: `${server.url}/second.xml`, channel: channel.uid });
    const second = await h.store.feeds.findByUrl(`${server.url}/second.xml`);
    const source = await client.get(`/c/${channel.uid}?feed=${second?.id}`);
    assert.match(source.text, /Second feed story/);
    assert.doesNotMatch(source.text, /Story 1</);
  });

  it('marks everything read up to an entry, a page read, and removes an entry', async () => {
    const entries = (await timeline()).entries;
    const middle = entries[10];
    assert.ok(middle);
    await client.post(`/c/${channel.uid}/entries/${middle.id}/read-up-to`);
    const after = (await timeline()).entries;
    assert.ok(after.slice(10).every((e) => e.isRead));
    assert.ok(after.slice(0, 10).some((e) => !e.isRead));
    const ids = after.slice(0, 3).map((e) => String(e.id));
    await client.post(`/c/${channel.uid}/read-page`, { ids });
    assert.ok((await h.store.reading.entriesById(channel.id, ids.map(Number))).every((e) => e.isRead));
    const removed = after[5];
    await client.post(`/c/${channel.uid}/entries/${removed?.id}/remove`);
    assert.ok(!(await timeline()).entries.some((e) => e.id === removed?.id));
  });

  it('searches all channels and one channel', async () => {
    const all = await client.get('/search?q=lighthouses');
    assert.equal(all.status, 200);
    assert.match(all.text, /Story 2/);
    assert.doesNotMatch(all.text, /Story 1</);
    const inChannel = await client.get(`/search?q=harbours&channel=${channel.uid}`);
    assert.match(inChannel.text, /Story 1</);
    assert.match(inChannel.text, /Mark unread|Mark read/);
    assert.match(inChannel.text, /about <mark>harbours<\/mark>/);
    assert.equal((await client.get('/search?q=x&channel=nope')).status, 404);
  });

  it('refreshes the channel in the background, shows the progress, then lists what failed', async () => {
    await client.post('/subscriptions/follow', { url: `${server.url}/broken.xml`, channel: channel.uid });
    const broken = await h.store.feeds.findByUrl(`${server.url}/broken.xml`);
    const before = (await h.store.heartbeats.list(feedId, 10)).length;
    // one polling run takes a feed once: the frozen test clock must move past the last check
    h.clock.advance(1000);
    const answer = await client.post(`/c/${channel.uid}/refresh`, { return: `/c/${channel.uid}` });
    assert.equal(answer.status, 303);
    const progress = answer.headers.get('location') ?? '';
    assert.match(progress, /^\/refresh\/[\w-]+$/);
    // the page reloads itself (Refresh header) until the run is over; here, ask until it says so
    let page = await client.get(progress);
    for (let i = 0; i < 200 && !page.text.includes('data-refresh="done"'); i++) {
      assert.equal(page.headers.get('refresh'), '1');
      await new Promise((resolve) => setImmediate(resolve));
      page = await client.get(progress);
    }
    assert.match(page.text, /Refreshed 3 feeds: 0 new entries; 1 failed\./);
    assert.match(page.text, new RegExp(`<a href="/feeds/${broken?.id}">Broken feed</a>: parse error`));
    assert.equal(page.headers.get('refresh'), null);
    assert.equal((await h.store.heartbeats.list(feedId, 10)).length, before + 1);
    assert.equal((await client.get('/refresh/unknown')).status, 404);
  });

  it('answers 404 for an unknown channel or entry', async () => {
    assert.equal((await client.get('/c/nope')).status, 404);
    assert.equal((await client.get(`/c/${channel.uid}/open/999999`)).status, 404);
    assert.equal((await client.post('/c/nope/entries/1/read')).status, 404);
  });

  it('answers 404 for a feed under a channel that does not follow it, in every view of it', async () => {
    await client.post('/subscriptions/follow', { url: `${server.url}/hostile.xml`, channel: 'Elsewhere' });
    const elsewhere = (await h.store.channels.list()).find((ch) => ch.name === 'Elsewhere') as Channel;
    const foreign = (await h.store.feeds.findByUrl(`${server.url}/hostile.xml`))?.id;
    assert.equal((await client.get(`/c/${elsewhere.uid}?feed=${foreign}`)).status, 200);
    const wrong = await client.get(`/c/${channel.uid}?feed=${foreign}`);
    assert.equal(wrong.status, 404);
    assert.match(wrong.text, /News follows no such feed\./);
    assert.doesNotMatch(wrong.text, /No entries here yet/);
    for (const feed of ['abc', '0', '99999'])
      assert.equal((await client.get(`/c/${channel.uid}?feed=${feed}`)).status, 404, feed);
    const [entry] = (await timeline()).entries;
    assert.equal((await client.get(`/c/${channel.uid}/e/${entry?.id}?feed=${foreign}`)).status, 404);
    assert.equal((await client.get(`/c/${channel.uid}/e/${entry?.id}?feed=${feedId}`)).status, 200);
    assert.equal((await client.post(`/c/${channel.uid}/refresh`, { feed: String(foreign) })).status, 404);
  });
});
