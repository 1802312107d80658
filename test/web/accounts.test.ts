import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiUser, Logins, setUserPassword } from '../../src/auth/index.js';
import type { Channel } from '../../src/model/stored.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { rss } from '../helpers/poll-harness.js';
import { startFixtures } from './fixtures.js';
import { Client, PASSWORD, type Page, signedIn, type WebHarness, webHarness } from './harness.js';

// Issue 24: several people on one tidings through the web UI. ann (an admin) and bob (not one) each read
// their own channels; no page answers bob with anything of ann's, or ann with anything of bob's, and a
// foreign id is answered as a missing one.

const BOB_PASSWORD = 'bob reads the news';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('web: accounts', () => {
  let h: WebHarness;
  let app: WebHarness['app'];
  let fixtures: TestServer & { feedUrl: string };
  let bobSite: TestServer;
  let annStore: Store;
  let bobStore: Store;
  let ann: Client;
  let bob: Client;
  // ann's own feed and channel (nobody else follows them), bob's, and a feed both follow
  let annFeed: number;
  let bobFeed: number;
  let sharedFeed: number;
  let annNews: Channel;
  let bobNews: Channel;
  let annEntry: number;
  let bobEntry: number;

  const asBob = { username: 'bob', password: BOB_PASSWORD };
  const asAnn = { username: 'ann', password: PASSWORD };
  const channelNamed = async (store: Store, name: string) =>
    (await store.channels.list()).find((ch) => ch.name === name) as Channel;
  const savedOf = async (store: Store) =>
    (await store.reading.savedEntries({ limit: 100 })).entries.map((e) => e.id);
  /** A foreign id is answered as a missing one: the same status and words. */
  const sameAsMissing = (foreign: Page, missing: Page, what: string) => {
    assert.equal(foreign.status, 404, what);
    assert.equal(foreign.status, missing.status, what);
    const words = (page: Page) => /<main id="main">([\s\S]*?)<\/main>/.exec(page.text)?.[1] ?? page.text;
    assert.equal(words(foreign), words(missing), what);
  };

  before(async () => {
    h = await webHarness();
    // every request here comes from the same (unknown) address: the refusals this file makes on purpose
    // must not lock the others out
    app = createApp({ ...h.deps, logins: new Logins({ maxFailures: 1000 }) });
    const now = h.clock.now();
    // the first user takes over user 1, whose password the harness set
    const annUser = await h.store.users.add({ name: 'ann', isAdmin: true }, now.toISOString());
    const bobUser = await h.store.users.add({ name: 'bob', isAdmin: false }, now.toISOString());
    annStore = h.store.forUser(annUser.id);
    bobStore = h.store.forUser(bobUser.id);
    await setUserPassword(bobStore, BOB_PASSWORD, now, { N: 1024 });
    h.clock.advance(1000);

    fixtures = await startFixtures();
    bobSite = await startServer({
      '/bob.xml': (_req, res) =>
        send(
          res,
          200,
          rss([
            {
              guid: 'z1',
              title: 'Zeppelin weather',
              link: 'https://bob.example/z1',
              description: 'Airships over the zeppelinfield',
              pubDate: 'Mon, 19 Jan 2026 09:00:00 GMT',
            },
          ]),
          { 'content-type': 'application/rss+xml' },
        ),
    });
    ann = await signedIn(app, asAnn);
    bob = await signedIn(app, asBob);
    for (const [client, url, channel] of [
      [ann, fixtures.feedUrl, 'Ann news'],
      [ann, `${fixtures.url}/second.xml`, 'Ann news'],
      [bob, `${bobSite.url}/bob.xml`, 'Bob news'],
      [bob, `${fixtures.url}/second.xml`, 'Bob news'],
    ] as const) {
      const followed = await client.post('/subscriptions/follow', { url, channel: '', new_channel: channel });
      assert.equal(followed.status, 303, followed.text.slice(0, 300));
    }
    annNews = await channelNamed(annStore, 'Ann news');
    bobNews = await channelNamed(bobStore, 'Bob news');
    annFeed = (await h.store.feeds.findByUrl(fixtures.feedUrl))?.id ?? 0;
    bobFeed = (await h.store.feeds.findByUrl(`${bobSite.url}/bob.xml`))?.id ?? 0;
    sharedFeed = (await h.store.feeds.findByUrl(`${fixtures.url}/second.xml`))?.id ?? 0;
    annEntry = (await annStore.reading.timeline({ channelId: annNews.id, limit: 1, feedId: annFeed }))
      .entries[0]?.id as number;
    bobEntry = (await bobStore.reading.timeline({ channelId: bobNews.id, limit: 1, feedId: bobFeed }))
      .entries[0]?.id as number;
    assert.ok(annFeed && bobFeed && sharedFeed && annEntry && bobEntry);
    // each saves their own entry; each feed has an icon
    assert.equal((await ann.post(`/entries/${annEntry}/save`, { saved: '1' })).status, 303);
    assert.equal((await bob.post(`/entries/${bobEntry}/save`, { saved: '1' })).status, 303);
    for (const feedId of [annFeed, bobFeed])
      await h.store.icons.save(feedId, { contentType: 'image/png', bytes: PNG }, now.toISOString());
  });
  after(async () => {
    await fixtures.close();
    await bobSite.close();
    await h.close();
  });

  describe('signing in', () => {
    it('signs in by name (in any case), and the name is shown in the navigation', async () => {
      const client = new Client(app);
      assert.equal((await client.login(BOB_PASSWORD, 'BOB')).status, 303);
      const page = await client.get('/channels');
      assert.match(page.text, /<a href="\/account" class="nav-user" title="Your account">bob<\/a>/);
      assert.doesNotMatch(page.text, /href="\/admin\/users"/, 'no Users link for a non-admin');
      assert.match((await ann.get('/channels')).text, /<a href="\/admin\/users">Users<\/a>/);
    });

    it('refuses an empty name with several users, an unknown name and a wrong password alike', async () => {
      const answers = [
        await new Client(app).login(PASSWORD),
        await new Client(app).login(PASSWORD, 'nobody'),
        await new Client(app).login('not the password', 'ann'),
        await new Client(app).login(BOB_PASSWORD, 'ann'),
      ];
      for (const answer of answers) {
        assert.equal(answer.status, 401);
        assert.match(answer.text, /That name or password is not right\./);
      }
      const login = await new Client(app).get('/login');
      assert.match(login.text, /name="username"/);
      assert.match(login.text, /name="password"/);
    });

    it('signs in with only the password while the instance has one user', async () => {
      const solo = await webHarness();
      try {
        await solo.store.users.add({ name: 'solo', isAdmin: true }, solo.clock.now().toISOString());
        const client = new Client(solo.app);
        assert.equal((await client.login()).status, 303);
        const page = await client.get('/channels');
        assert.equal(page.status, 200);
        assert.match(page.text, /class="nav-user" title="Your account">solo</);
        assert.equal((await new Client(solo.app).login(PASSWORD, 'solo')).status, 303);
      } finally {
        await solo.close();
      }
    });

    it('says how to set up the first user while nobody has a password', async () => {
      const empty = await webHarness({ withPassword: false });
      try {
        const page = await new Client(empty.app).get('/login');
        assert.match(page.text, /tidings password/);
        assert.match(page.text, /tidings user add NAME/);
        assert.doesNotMatch(page.text, /name="password"/);
      } finally {
        await empty.close();
      }
    });

    it('takes a session cookie of before accounts as user 1 (the owner migration 0011 made ann)', async () => {
      const secret = (await h.store.accounts.getSetting('web.session_secret')) ?? '';
      const value = `old-session:${h.clock.now().getTime()}`;
      const signature = createHmac('sha256', secret).update(value).digest('base64');
      const client = new Client(app);
      client.cookies.set('tidings_session', encodeURIComponent(`${value}.${signature}`));
      const page = await client.get('/channels');
      assert.equal(page.status, 200);
      assert.match(page.text, /class="nav-user" title="Your account">ann</);
    });
  });

  describe('isolation', () => {
    it("shows bob his channels, counts and feeds, nothing of ann's", async () => {
      const channels = await bob.get('/channels');
      assert.match(channels.text, /Bob news/);
      assert.doesNotMatch(channels.text, /Ann news/);
      const all = await bob.get('/all');
      assert.doesNotMatch(all.text, /Ann news|Story 0/);
      assert.match(all.text, /Zeppelin weather/);
      const unread = (await bobStore.reading.unreadCounts()).reduce((n, c) => n + c.unread, 0);
      assert.match(all.text, new RegExp(`data-count="all">${unread}<`));
      const health = await bob.get('/feeds');
      assert.match(health.text, new RegExp(`href="/feeds/${bobFeed}"`));
      assert.doesNotMatch(health.text, new RegExp(`href="/feeds/${annFeed}"`));
      // ?all=1 is an admin's: bob still sees only his own
      assert.doesNotMatch((await bob.get('/feeds?all=1')).text, new RegExp(`href="/feeds/${annFeed}"`));
    });

    it("answers bob about ann's channel, entries, feed and icon as about missing ones", async () => {
      const pairs: [string, string][] = [
        [`/c/${annNews.uid}`, '/c/no-such-channel'],
        [`/c/${annNews.uid}/e/${annEntry}`, '/c/no-such-channel/e/1'],
        [`/c/${bobNews.uid}/e/${annEntry}`, `/c/${bobNews.uid}/e/999999`],
        [`/all/e/${annEntry}`, '/all/e/999999'],
        [`/saved/e/${annEntry}`, '/saved/e/999999'],
        [`/feeds/${annFeed}`, '/feeds/999999'],
        [`/subscriptions/${annFeed}`, '/subscriptions/999999'],
        [`/c/${bobNews.uid}?feed=${annFeed}`, `/c/${bobNews.uid}?feed=999999`],
      ];
      for (const [foreign, missing] of pairs)
        sameAsMissing(await bob.get(foreign), await bob.get(missing), foreign);
      assert.equal((await bob.get(`/icons/${annFeed}`)).status, 404);
      assert.equal((await ann.get(`/icons/${annFeed}`)).status, 200);
      assert.equal((await ann.get(`/icons/${bobFeed}`)).status, 404, 'icons are for followers, admins too');
    });

    it("changes nothing of ann's when bob posts her ids", async () => {
      const savedBefore = await savedOf(annStore);
      const unreadBefore = await annStore.reading.unreadCounts();
      const posts: [string, Record<string, string>][] = [
        [`/entries/${annEntry}/save`, { saved: '0' }],
        [`/c/${annNews.uid}/read-all`, {}],
        [`/c/${annNews.uid}/entries/${annEntry}/read`, { read: '1' }],
        [`/c/${bobNews.uid}/entries/${annEntry}/read`, { read: '1' }],
        [`/feeds/${annFeed}/refresh`, {}],
        [`/feeds/${annFeed}/pause`, { paused: '1' }],
        [`/subscriptions/${annFeed}/settings`, { title: 'Mine now', paused: '1' }],
        [`/channels/${annNews.uid}/rename`, { name: 'Taken' }],
        [`/channels/${annNews.uid}/delete`, {}],
      ];
      for (const [path, form] of posts) assert.equal((await bob.post(path, form)).status, 404, path);
      // a feed of ann's that bob follows too cannot be unfollowed from ann's channel
      const unfollow = await bob.post(`/subscriptions/${sharedFeed}/unfollow`, { channel: annNews.uid });
      assert.equal(unfollow.status, 404);
      assert.deepEqual(await savedOf(annStore), savedBefore);
      assert.deepEqual(await annStore.reading.unreadCounts(), unreadBefore);
      assert.equal((await annStore.channels.follows(annFeed))?.paused, false);
      assert.equal((await annStore.channels.follows(annFeed))?.title, undefined);
      assert.equal((await channelNamed(annStore, 'Ann news'))?.uid, annNews.uid);
      assert.equal((await h.store.feeds.get(annFeed))?.paused, false);
    });

    it("keeps saved entries, search, OPML and tokens apart (and ann, an admin, sees none of bob's)", async () => {
      const bobSaved = await bob.get('/saved');
      assert.match(bobSaved.text, /Zeppelin weather/);
      assert.doesNotMatch(bobSaved.text, new RegExp(`/saved/e/${annEntry}"`));
      const annSaved = await ann.get('/saved');
      assert.doesNotMatch(annSaved.text, /Zeppelin weather/);
      // ann's feed has "lighthouses" in its stories, bob's "zeppelinfield"
      assert.doesNotMatch((await bob.get('/search?q=lighthouses')).text, /Story \d/);
      assert.match((await ann.get('/search?q=lighthouses')).text, /Story \d/);
      assert.doesNotMatch((await ann.get('/search?q=zeppelinfield')).text, /Zeppelin weather/);
      sameAsMissing(
        await ann.get(`/search?q=x&channel=${bobNews.uid}`),
        await ann.get('/search?q=x&channel=no-such-channel'),
        'search in a foreign channel',
      );
      const bobOpml = (await bob.get('/opml/export')).text;
      assert.match(bobOpml, /bob\.xml/);
      assert.doesNotMatch(bobOpml, /feed\.xml/);
      assert.doesNotMatch((await ann.get('/opml/export')).text, /bob\.xml/);
      sameAsMissing(await ann.get(`/c/${bobNews.uid}`), await ann.get('/c/nope'), "bob's channel");
      sameAsMissing(await ann.get(`/all/e/${bobEntry}`), await ann.get('/all/e/999999'), "bob's entry");
      // a token of bob's is not ann's to see or revoke
      const created = await bob.post('/tokens', { scope: 'read', label: 'bob phone' });
      assert.match(created.text, /bob phone/);
      assert.doesNotMatch((await ann.get('/tokens')).text, /bob phone/);
      const [token] = await bobStore.accounts.listTokens();
      assert.ok(token);
      assert.equal((await ann.post(`/tokens/${token.id}/revoke`)).status, 404);
      assert.equal((await bobStore.accounts.listTokens())[0]?.revokedAt, undefined);
    });

    it("sets bob's app password under his own name, never another user's", async () => {
      const refused = await bob.post('/tokens/api-password', { user: 'ann', password: 'an app password' });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /apps sign in with your user name, bob/);
      assert.equal(await apiUser(annStore), undefined);
      assert.equal(await apiUser(bobStore), undefined);
      const set = await bob.post('/tokens/api-password', { user: '', password: 'an app password' });
      assert.equal(set.status, 303);
      assert.equal(await apiUser(bobStore), 'bob');
      assert.match((await bob.get('/tokens')).text, /The API user is <strong>bob<\/strong>/);
      assert.equal(await apiUser(annStore), undefined);
    });

    it('lets an admin see the health of every feed, as a view apart from their own', async () => {
      const own = await ann.get('/feeds');
      assert.doesNotMatch(own.text, new RegExp(`href="/feeds/${bobFeed}"`));
      const every = await ann.get('/feeds?all=1');
      assert.match(every.text, new RegExp(`href="/feeds/${bobFeed}"`));
      assert.match(every.text, /Every feed of this tidings/);
      assert.equal((await ann.get(`/feeds/${bobFeed}`)).status, 200);
    });
  });

  describe('feed settings of a shared feed', () => {
    it('refuses bob a change of the shared fetch with a message, and keeps his own title and pause his', async () => {
      const page = await bob.get(`/subscriptions/${sharedFeed}`);
      assert.match(page.text, /Others follow this feed too/);
      assert.match(page.text, /name="interval_minutes"[^>]*disabled/);
      const refused = await bob.post(`/subscriptions/${sharedFeed}/settings`, {
        title: 'Bob names it',
        interval_minutes: '5',
      });
      assert.equal(refused.status, 403);
      assert.match(refused.text, /only an admin may change its URL, interval or User-Agent/);
      assert.equal((await h.store.feeds.get(sharedFeed))?.pollIntervalSeconds, undefined);
      // as the form sends it to him: without the fields it shows disabled
      const renamed = await bob.post(`/subscriptions/${sharedFeed}/settings`, { title: 'Bob names it' });
      assert.equal(renamed.status, 303);
      assert.equal((await bobStore.channels.follows(sharedFeed))?.title, 'Bob names it');
      assert.equal((await annStore.channels.follows(sharedFeed))?.title, undefined);
      // an admin may
      const changed = await ann.post(`/subscriptions/${sharedFeed}/settings`, { interval_minutes: '30' });
      assert.equal(changed.status, 303);
      assert.equal((await h.store.feeds.get(sharedFeed))?.pollIntervalSeconds, 1800);
    });
  });

  describe('passwords', () => {
    it("ends bob's other sessions when he changes his password, and nobody else's", async () => {
      const other = await signedIn(app, asBob);
      const changer = await signedIn(app, asBob);
      h.clock.advance(1000);
      const mismatch = await changer.post('/account/password', {
        current: BOB_PASSWORD,
        password: 'a new password',
        again: 'another one',
      });
      assert.equal(mismatch.status, 400);
      const wrong = await changer.post('/account/password', {
        current: 'not it at all',
        password: 'a new password',
        again: 'a new password',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.text, /current password is not right/);
      const changed = await changer.post('/account/password', {
        current: BOB_PASSWORD,
        password: 'a new password',
        again: 'a new password',
      });
      assert.equal(changed.status, 303);
      assert.equal((await changer.get('/account')).status, 200, 'this browser stays signed in');
      assert.equal((await other.get('/channels')).status, 303, "bob's other session ended");
      assert.equal((await bob.get('/channels')).status, 303);
      assert.equal((await ann.get('/channels')).status, 200, "ann's session stays");
      assert.equal((await new Client(app).login(BOB_PASSWORD, 'bob')).status, 401);
      bob = await signedIn(app, { username: 'bob', password: 'a new password' });
    });
  });

  describe('admin pages', () => {
    it('are 403 for a non-admin, and change nothing', async () => {
      const page = await bob.get('/admin/users');
      assert.equal(page.status, 403);
      assert.match(page.text, /Only an admin/);
      const add = await bob.post('/admin/users', { name: 'mallory', password: 'mallory password' });
      assert.equal(add.status, 403);
      assert.equal(await h.store.users.byName('mallory'), undefined);
      const annId = (await h.store.users.byName('ann'))?.id;
      assert.equal((await bob.post(`/admin/users/${annId}/remove`, { confirm: 'yes' })).status, 403);
      assert.equal(
        (await bob.post(`/admin/users/${annId}/password`, { password: 'bob owns ann' })).status,
        403,
      );
    });

    it('let an admin add, reset and remove users, with refusals on the page', async () => {
      const list = await ann.get('/admin/users');
      assert.equal(list.status, 200);
      assert.match(list.text, /<tr data-user="bob">[\s\S]*?<td class="num">2<\/td>/);

      const added = await ann.post('/admin/users', { name: 'cat', password: 'cat password' });
      assert.equal(added.status, 303);
      const cat = await h.store.users.byName('cat');
      assert.equal(cat?.isAdmin, false);
      let catClient = await signedIn(app, { username: 'cat', password: 'cat password' });
      assert.match((await catClient.get('/channels')).text, /class="nav-user" title="Your account">cat</);

      const taken = await ann.post('/admin/users', { name: 'CAT', password: 'cat password' });
      assert.equal(taken.status, 409);
      assert.match(taken.text, /is taken/);
      const badName = await ann.post('/admin/users', { name: 'no spaces', password: 'long enough' });
      assert.equal(badName.status, 400);
      assert.match(badName.text, /is not a user name/);
      const short = await ann.post('/admin/users', { name: 'dog', password: 'short', admin: '1' });
      assert.equal(short.status, 400);
      assert.match(short.text, /at least 8 characters/);
      assert.match(short.text, /name="name"[^>]*value="dog"/);
      assert.equal(await h.store.users.byName('dog'), undefined);

      h.clock.advance(1000);
      const reset = await ann.post(`/admin/users/${cat?.id}/password`, { password: 'new cat password' });
      assert.equal(reset.status, 303);
      assert.equal((await catClient.get('/channels')).status, 303, "cat's sessions end");
      catClient = await signedIn(app, { username: 'cat', password: 'new cat password' });

      const self = await ann.post(`/admin/users/${(await h.store.users.byName('ann'))?.id}/remove`, {
        confirm: 'yes',
      });
      assert.equal(self.status, 400);
      assert.match(self.text, /You cannot remove yourself/);
      const asked = await ann.post(`/admin/users/${cat?.id}/remove`);
      assert.equal(asked.status, 200);
      assert.match(asked.text, /Remove cat\?/);
      assert.ok(await h.store.users.byName('cat'), 'asked first, not removed');
      const removed = await ann.post(`/admin/users/${cat?.id}/remove`, { confirm: 'yes' });
      assert.equal(removed.status, 303);
      assert.equal(await h.store.users.byName('cat'), undefined);
      assert.equal((await catClient.get('/channels')).status, 303, "a removed user's session ends");
      assert.equal((await ann.post('/admin/users/999999/remove', { confirm: 'yes' })).status, 404);
    });
  });
});
