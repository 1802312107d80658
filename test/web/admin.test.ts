import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { hashToken } from '../../src/store/index.js';
import { startFixtures } from './fixtures.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

describe('web: channels admin', () => {
  let h: WebHarness;
  let client: Client;
  before(async () => {
    h = await webHarness();
    client = await signedIn(h.app);
  });
  after(() => h.close());

  const names = async () =>
    (await h.store.channels.list()).sort((a, b) => a.position - b.position).map((c) => c.name);

  it('sends a new reader (only Notifications) from / to follow a first feed', async () => {
    assert.equal((await client.get('/')).headers.get('location'), '/subscriptions');
    assert.match((await client.get('/subscriptions')).text, /You follow no feeds yet/);
  });

  it('creates, renames, reorders and deletes channels; notifications stays first and stays', async () => {
    for (const name of ['Alpha', 'Beta', 'Gamma'])
      assert.equal((await client.post('/channels', { name })).status, 303);
    const page = await client.get('/channels');
    assert.equal(page.status, 200);
    assert.match(page.text, /Alpha[\s\S]*Beta[\s\S]*Gamma/);
    const gamma = (await h.store.channels.list()).find((c) => c.name === 'Gamma');
    assert.ok(gamma);
    await client.post(`/channels/${gamma.uid}/move`, { direction: 'up' });
    assert.deepEqual(await names(), ['Notifications', 'Alpha', 'Gamma', 'Beta']);
    await client.post(`/channels/${gamma.uid}/move`, { direction: 'up' });
    await client.post(`/channels/${gamma.uid}/move`, { direction: 'up' });
    assert.deepEqual(await names(), ['Notifications', 'Gamma', 'Alpha', 'Beta']);
    await client.post(`/channels/${gamma.uid}/move`, { direction: 'down' });
    assert.deepEqual(await names(), ['Notifications', 'Alpha', 'Gamma', 'Beta']);
    await client.post(`/channels/${gamma.uid}/rename`, { name: 'Gamma rays' });
    assert.equal((await h.store.channels.get(gamma.uid))?.name, 'Gamma rays');
    await client.post(`/channels/${gamma.uid}/delete`);
    assert.deepEqual(await names(), ['Notifications', 'Alpha', 'Beta']);
    assert.equal((await client.post('/channels/notifications/delete')).status, 400);
    assert.equal((await client.post('/channels', { name: '  ' })).status, 400);
    assert.equal((await client.post('/channels/nope/rename', { name: 'x' })).status, 404);
  });
});

describe('web: subscriptions admin', () => {
  let h: WebHarness;
  let client: Client;
  let server: Awaited<ReturnType<typeof startFixtures>>;
  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('discovers the feed of a page and previews its latest entries without storing them', async () => {
    const page = await client.post('/subscriptions/discover', { url: server.pageUrl });
    assert.equal(page.status, 200);
    assert.match(page.text, /is a web page/);
    assert.match(page.text, /Test feed/);
    assert.match(page.text, /Story 0[\s\S]*Story 4/);
    assert.doesNotMatch(page.text, /Story 5</);
    assert.match(page.text, new RegExp(`name="url" value="${server.feedUrl}"`));
    assert.equal((await h.store.feeds.list()).length, 0);
    const bad = await client.post('/subscriptions/discover', { url: `${server.url}/missing` });
    assert.match(bad.text, /class="error"/);
    assert.equal((await client.post('/subscriptions/discover', { url: 'javascript:alert(1)' })).status, 400);
  });

  it('follows (fetching at once), moves, refreshes, pauses and unfollows', async () => {
    await client.post('/channels', { name: 'Reading' });
    await client.post('/channels', { name: 'Later' });
    const [reading, later] = ['Reading', 'Later'].map((n) =>
      h.store.channels.list().then((cs) => cs.find((c) => c.name === n)),
    );
    const from = await reading;
    const to = await later;
    assert.ok(from && to);
    await client.post('/subscriptions/follow', { url: server.feedUrl, channel: from.uid });
    const feed = await h.store.feeds.findByUrl(server.feedUrl);
    assert.ok(feed);
    assert.equal(feed.status, 'ok');
    assert.equal((await h.store.reading.timeline({ channelId: from.id, limit: 5 })).entries.length, 5);
    const list = await client.get('/subscriptions');
    assert.match(list.text, /Test feed/);
    assert.match(list.text, /Reading/);

    await client.post(`/subscriptions/${feed.id}/move`, { from: from.uid, to: to.uid });
    assert.deepEqual(
      (await h.store.channels.listSubscriptions(to.id)).map((s) => s.feedId),
      [feed.id],
    );
    assert.equal((await h.store.channels.listSubscriptions(from.id)).length, 0);

    h.clock.advance(1000);
    const refreshed = await client.post(`/feeds/${feed.id}/refresh`, { return: '/subscriptions' });
    assert.equal(refreshed.headers.get('location'), '/subscriptions');
    assert.equal((await h.store.heartbeats.list(feed.id, 10)).length, 2);

    await client.post(`/feeds/${feed.id}/pause`, { paused: '1' });
    assert.equal((await h.store.feeds.get(feed.id))?.paused, true);
    assert.match((await client.get('/feeds')).text, /status-paused/);
    await client.post(`/feeds/${feed.id}/pause`, { paused: '0' });
    assert.equal((await h.store.feeds.get(feed.id))?.paused, false);

    await client.post(`/subscriptions/${feed.id}/unfollow`, { channel: to.uid });
    assert.equal((await h.store.channels.listSubscriptions()).length, 0);
    const unfollowed = await h.store.feeds.get(feed.id);
    assert.ok(
      unfollowed?.unfollowedAt,
      'a feed followed nowhere is kept, marked unfollowed (no longer polled)',
    );
    assert.equal((await h.store.heartbeats.list(feed.id, 10)).length, 2, 'with its history');
  });
});

describe('web: OPML and tokens', () => {
  let h: WebHarness;
  let client: Client;
  let server: Awaited<ReturnType<typeof startFixtures>>;
  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('imports OPML in the background with a status page, then exports it', async () => {
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
      <outline text="Loose" xmlUrl="${server.url}/second.xml"/>
      <outline text="Tech"><outline text="News feed" xmlUrl="${server.feedUrl}"/><outline text="Broken" xmlUrl="${server.url}/broken.xml"/></outline>
      </body></opml>`;
    const form = new FormData();
    form.append('file', new File([opml], 'mine.opml', { type: 'text/x-opml' }));
    const started = await client.postMultipart('/opml/import', form);
    assert.equal(started.status, 303);
    const jobPath = started.headers.get('location') ?? '';
    assert.match(jobPath, /^\/opml\/jobs\//);
    let status = await client.get(jobPath);
    for (let i = 0; i < 200 && !/data-job="(done|failed)"/.test(status.text); i++) {
      assert.equal(status.headers.get('refresh'), '1');
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = await client.get(jobPath);
    }
    assert.match(
      status.text,
      /Finished: followed 3 of 3 feeds \(3 new\); not followed: 0 already followed, 0 failed/,
    );
    // the progress lines count what they say: outlines read, and the new feeds fetched of those to fetch
    assert.match(status.text, /Read 3 of 3 outlines/);
    assert.match(status.text, /Fetched 3 of 3 new feeds/);
    assert.equal(status.headers.get('refresh'), null);
    const tech = (await h.store.channels.list()).find((c) => c.name === 'Tech');
    assert.ok(tech);
    assert.equal((await h.store.channels.listSubscriptions(tech.id)).length, 2);
    assert.ok(
      (await h.store.channels.list()).some((c) => c.name === 'Home'),
      'loose feeds go to a default channel',
    );
    assert.equal((await h.store.feeds.findByUrl(server.feedUrl))?.status, 'ok');
    assert.match((await client.get('/opml')).text, /mine\.opml/);

    const exported = await client.get('/opml/export');
    assert.match(exported.headers.get('content-disposition') ?? '', /attachment/);
    assert.match(exported.text, /<outline text="Tech"/);
    assert.ok(exported.text.includes(`xmlUrl="${server.feedUrl}"`));
    assert.equal((await client.postMultipart('/opml/import', new FormData())).status, 400);
  });

  it('gives the apps the API URLs that the README gives, and the server answers at them', async () => {
    const page = (await client.get('/tokens')).text;
    const shown = [...page.matchAll(/<code>http:\/\/localhost(\/api\/[^<]+)<\/code>/g)].map((m) => m[1]);
    assert.deepEqual(shown, ['/api/greader.php', '/api/fever.php']);
    // the README's table of apps, "Enter the server in your app"
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('### 2. Enter the server in your app'));
    const given = new Set(
      [
        ...table
          .slice(0, table.indexOf('\n\n', table.indexOf('| ---')))
          .matchAll(/https:\/\/reader\.example\.com(\/api\/[^`)\s]+)/g),
      ].map((m) => m[1]),
    );
    assert.ok(given.has('/api/greader.php') && given.has('/api/fever.php'), [...given].join(' '));
    for (const path of given) assert.match(path ?? '', /^\/api\/(greader\.php|fever\.php|fever\/)$/);
    // mounted: ClientLogin refuses a wrong password there, and Fever answers its version
    const login = await h.app.request('/api/greader.php/accounts/ClientLogin', {
      method: 'POST',
      body: new URLSearchParams({ Email: 'nobody', Passwd: 'wrong password' }),
    });
    assert.equal(login.status, 401);
    const fever = await h.app.request('/api/fever.php?api', { method: 'POST' });
    assert.equal(fever.status, 200);
    assert.equal(((await fever.json()) as { api_version?: number }).api_version, 3);
  });

  it('creates a token, shows it once, and revokes it', async () => {
    const created = await client.post('/tokens', { label: 'Monocle', scope: ['read', 'follow'] });
    assert.equal(created.status, 200);
    const token = /value="([A-Za-z0-9_-]{43})" aria-label="New token"/.exec(created.text)?.[1];
    assert.ok(token, 'the new token is on the page');
    const stored = await h.store.accounts.findToken(hashToken(token));
    assert.equal(stored?.scope, 'read follow');
    assert.equal(stored?.label, 'Monocle');
    const list = await client.get('/tokens');
    assert.ok(!list.text.includes(token), 'shown once only');
    assert.match(list.text, /Monocle/);
    await client.post(`/tokens/${stored?.id}/revoke`);
    assert.equal(await h.store.accounts.findToken(hashToken(token)), undefined);
    assert.match((await client.get('/tokens')).text, /revoked/);
    assert.equal((await client.post('/tokens', { label: 'none' })).status, 400);
  });
});
