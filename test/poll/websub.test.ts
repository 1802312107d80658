// WebSub subscriber (issue 26) against a local hub and publisher written from the W3C recommendation
// (test/helpers/websub-hub.ts): discovery in every place a hub is announced, topic and hub redirects,
// verification of intent, signed content distribution through the poller's own path, leases, unfollowing,
// hubs that fail or deny, and an entry pushed into the Microsub timeline at once. On both databases.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { hashPassword, PASSWORD_SETTING } from '../../src/auth/password-hash.js';
import { statusJson } from '../../src/cli/status.js';
import { describePush, WebSub } from '../../src/poll/index.js';
import { redirectTo } from '../helpers/http-server.js';
import { pollDeps, rss } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';
import { type LocalHub, startLocalHub } from '../helpers/websub-hub.js';
import { type Harness, openHarness } from '../microsub/harness.js';
import { type Client, PASSWORD, signedIn } from '../web/harness.js';

const RSS = 'application/rss+xml';
const ATOM_NS = 'xmlns:atom="http://www.w3.org/2005/Atom"';
const HOUR_MS = 3600_000;

function item(guid: string) {
  return {
    guid,
    title: `Title ${guid}`,
    link: `https://example.com/${guid}`,
    description: `Body of ${guid}`,
  };
}

function atom(hub: string, self: string, guid = 'a1'): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom topic</title><id>urn:x:atom</id>
<link rel="hub" href="${hub}"/><link rel="self" href="${self}"/><updated>2026-03-01T00:00:00Z</updated>
<entry><id>${guid}</id><title>${guid}</title><link href="https://example.com/${guid}"/><updated>2026-03-01T00:00:00Z</updated></entry>
</feed>`;
}

function html(hub: string): string {
  return `<!doctype html><html><head><title>HTML topic</title><link rel="hub" href="${hub}"></head>
<body><div class="h-feed"><h1 class="p-name">HTML topic</h1>
<article class="h-entry"><a class="u-url p-name" href="https://example.com/h1">Post h1</a></article></div></body></html>`;
}

function jsonFeed(hub: string): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'JSON topic',
    hubs: [{ type: 'WebSub', url: hub }],
    items: [{ id: 'j1', url: 'https://example.com/j1', content_text: 'j1' }],
  });
}

for (const backend of storeBackends()) {
  describe(`WebSub subscriber (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let hub: LocalHub;
    let callbacks: Server;
    let push: WebSub;
    let base: string;
    let web: Client;

    before(async () => {
      hub = await startLocalHub();
      h = await openHarness(backend);
      callbacks = createServer(getRequestListener(h.app.fetch));
      await new Promise<void>((resolve) => callbacks.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}`;
      push = new WebSub(h.deps.poll, base);
      h.deps.poll.push = push;
      await h.store.accounts.setUserSetting(PASSWORD_SETTING, await hashPassword(PASSWORD, { N: 1024 }));
      web = await signedIn(h.app);
    });

    /** The push state on the feed's health page: its data-push and its words. */
    async function pushOnPage(feedId: number): Promise<{ state: string; words: string }> {
      const page = await web.get(`/feeds/${feedId}`);
      const match = /<dd data-push="([a-z]+)">([^<]*)<\/dd>/.exec(page.text);
      assert.ok(match, 'the feed page shows its push state');
      return { state: match[1] as string, words: match[2] as string };
    }

    after(async () => {
      await push.idle();
      callbacks.closeAllConnections();
      await new Promise((resolve) => callbacks.close(resolve));
      await hub.close();
      await h.close();
      await backend.cleanup();
    });

    /** Follows the topic at `path`, polls it, and waits for the hub's verification. */
    async function follow(path: string): Promise<number> {
      const feed = await addFollowedFeed(h.store, `${hub.url}${path}`, h.clock.now().toISOString());
      await pollAndSettle(feed.id);
      return feed.id;
    }

    async function pollAndSettle(feedId: number): Promise<void> {
      const feed = await h.store.feeds.get(feedId);
      await h.poll(feed?.url ?? '');
      await settle();
    }

    async function settle(): Promise<void> {
      await push.idle();
      await hub.settled();
      await push.idle();
    }

    const lastRequestFor = (topic: string) => hub.received.filter((r) => r.topic === topic).at(-1);
    const linkHeader = (hubUrl: string, self?: string) => ({
      link: `<${hubUrl}>; rel="hub"${self ? `, <${self}>; rel="self"` : ''}`,
    });

    it('discovers the hub in the Link header and subscribes with a secret and a 7-day lease', async () => {
      const topic = `${hub.url}/link.xml`;
      hub.serve('/link.xml', rss([item('l1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/link.xml');
      const request = lastRequestFor(topic);
      assert.ok(request, 'the hub got a subscription request');
      assert.equal(request.mode, 'subscribe');
      assert.match(request.callback, new RegExp(`^${base}/websub/[A-Za-z0-9_-]{32}$`));
      assert.ok((request.secret ?? '').length >= 64, 'a secret of at least 32 bytes');
      assert.equal(request.leaseSeconds, 7 * 24 * 3600);
      assert.deepEqual(request.verification, { status: 200, echoed: true });
      const sub = await h.store.websub.get(feedId);
      assert.equal(sub?.state, 'active');
      assert.equal(sub?.hub, hub.hubUrl);
      const granted = Date.parse(sub?.expiresAt ?? '') - Date.parse(sub?.verifiedAt ?? '');
      assert.equal(granted, 7 * 24 * HOUR_MS);
      const feed = await h.store.feeds.get(feedId);
      assert.equal(feed?.hubUrl, hub.hubUrl);
      assert.deepEqual(feed && statusJson(feed, sub, h.clock.now()).push, {
        state: 'active',
        hub: hub.hubUrl,
        topic,
        expiresAt: sub?.expiresAt,
      });
      const shown = await pushOnPage(feedId);
      assert.equal(shown.state, 'active');
      assert.match(shown.words, /^active until \d{4}-\d\d-\d\d \d\d:\d\d UTC through http/);
    });

    const bodies: [string, string, (hubUrl: string) => string, string][] = [
      ['an HTML page (<link rel="hub">)', '/page.html', html, 'text/html; charset=utf-8'],
      [
        'an RSS feed (atom:link)',
        '/rss.xml',
        (hubUrl) => rss([item('r1')], `<atom:link ${ATOM_NS} rel="hub" href="${hubUrl}"/>`),
        RSS,
      ],
      ['a JSON Feed (hubs)', '/feed.json', jsonFeed, 'application/feed+json'],
    ];
    for (const [what, path, body, type] of bodies) {
      it(`discovers the hub in ${what}`, async () => {
        hub.serve(path, body(hub.hubUrl), type);
        const feedId = await follow(path);
        assert.deepEqual(lastRequestFor(`${hub.url}${path}`)?.verification, { status: 200, echoed: true });
        assert.equal((await h.store.websub.get(feedId))?.state, 'active');
      });
    }

    it('subscribes to an Atom feed at its rel=self, which differs from the URL fetched', async () => {
      const self = `${hub.url}/canonical.atom`;
      hub.serve('/fetched.atom', atom(hub.hubUrl, self), 'application/atom+xml');
      const feedId = await follow('/fetched.atom');
      assert.equal(lastRequestFor(`${hub.url}/fetched.atom`), undefined);
      assert.equal(lastRequestFor(self)?.verification?.echoed, true);
      assert.equal((await h.store.websub.get(feedId))?.topic, self);
    });

    it('takes the Link header over the hub the document names', async () => {
      hub.routes['POST /body-hub'] = (_req, res) => {
        res.writeHead(202).end();
      };
      const topic = `${hub.url}/both.xml`;
      const body = rss([item('b1')], `<atom:link ${ATOM_NS} rel="hub" href="${hub.url}/body-hub"/>`);
      hub.serve('/both.xml', body, RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/both.xml');
      assert.equal((await h.store.websub.get(feedId))?.hub, hub.hubUrl);
      assert.equal(hub.server.requests.filter((r) => r.path === '/body-hub').length, 0);
      assert.equal((await h.store.websub.get(feedId))?.state, 'active');
    });

    for (const status of [301, 302, 307, 308]) {
      it(`follows a topic that redirects with ${status}`, async () => {
        const target = `${hub.url}/topic-${status}-target.xml`;
        hub.serve(`/topic-${status}-target.xml`, rss([item(`t${status}`)]), RSS, linkHeader(hub.hubUrl));
        hub.routes[`/topic-${status}.xml`] = redirectTo(target, status);
        const feedId = await follow(`/topic-${status}.xml`);
        assert.equal(lastRequestFor(target)?.verification?.echoed, true);
        assert.equal((await h.store.websub.get(feedId))?.topic, target);
      });

      it(`follows a hub that redirects with ${status}`, async () => {
        hub.routes[`POST /hub-${status}`] = redirectTo(hub.hubUrl, status);
        const topic = `${hub.url}/moved-hub-${status}.xml`;
        hub.serve(`/moved-hub-${status}.xml`, rss([item(`h${status}`)]), RSS, {
          link: `<${hub.url}/hub-${status}>; rel="hub"`,
        });
        const feedId = await follow(`/moved-hub-${status}.xml`);
        assert.equal(hub.server.requests.filter((r) => r.path === `/hub-${status}`).length, 1);
        assert.equal(lastRequestFor(topic)?.verification?.echoed, true);
        assert.equal((await h.store.websub.get(feedId))?.state, 'active');
      });
    }

    it('subscribes again, with a new callback, when the feed names another hub', async () => {
      const topic = `${hub.url}/rehub.xml`;
      hub.serve('/rehub.xml', rss([item('rh1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/rehub.xml');
      const first = await h.store.websub.get(feedId);
      const secondHub = `${hub.url}/second-hub`;
      hub.routes['POST /second-hub'] = hub.routes['POST /hub'] as NonNullable<(typeof hub.routes)[string]>;
      hub.serve('/rehub.xml', rss([item('rh1')]), RSS, linkHeader(secondHub, topic));
      await pollAndSettle(feedId);
      const second = await h.store.websub.get(feedId);
      assert.equal(second?.hub, secondHub);
      assert.equal(second?.state, 'active');
      assert.notEqual(second?.token, first?.token);
      assert.equal(hub.server.requests.filter((r) => r.path === '/second-hub').length, 1);
    });

    it('lets the lease run out when the feed stops naming a hub, and subscribes when it names one again', async () => {
      const topic = `${hub.url}/hubless.xml`;
      hub.serve('/hubless.xml', rss([item('hl1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/hubless.xml');
      const first = await h.store.websub.get(feedId);
      hub.serve('/hubless.xml', rss([item('hl1')]), RSS);
      await pollAndSettle(feedId);
      const dropped = await h.store.websub.get(feedId);
      assert.equal(dropped?.nextActionAt, undefined, 'not renewed');
      assert.match(dropped?.message ?? '', /names no hub any more/);
      assert.equal((await h.store.feeds.get(feedId))?.hubUrl, undefined);
      hub.serve('/hubless.xml', rss([item('hl1')]), RSS, linkHeader(hub.hubUrl, topic));
      await pollAndSettle(feedId);
      const again = await h.store.websub.get(feedId);
      assert.equal(again?.state, 'active');
      assert.notEqual(again?.token, first?.token);
      assert.ok(again?.nextActionAt);
    });

    it('answers 404 to a verification that does not match a request it made', async () => {
      const topic = `${hub.url}/verify.xml`;
      hub.options.status = 500; // the hub accepts nothing: the request stays as tidings made it
      hub.serve('/verify.xml', rss([item('v1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/verify.xml');
      hub.options.status = 202;
      const sub = await h.store.websub.get(feedId);
      assert.ok(sub);
      // a pending subscribe, as it is before the hub verifies
      await h.store.websub.update(sub.token, { state: 'pending', pendingMode: 'subscribe' });
      const ask = async (token: string, query: Record<string, string>) => {
        const response = await fetch(`${base}/websub/${token}?${new URLSearchParams(query)}`);
        return { status: response.status, text: await response.text() };
      };
      const good = { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.challenge': 'c-1' };
      assert.equal((await ask(sub.token, { ...good, 'hub.topic': `${hub.url}/other.xml` })).status, 404);
      assert.equal((await ask(sub.token, { ...good, 'hub.mode': 'unsubscribe' })).status, 404);
      assert.equal((await ask('no-such-token', good)).status, 404);
      assert.equal((await ask(sub.token, { ...good, 'hub.challenge': '' })).status, 404);
      assert.equal((await h.store.websub.get(feedId))?.state, 'pending');
      assert.deepEqual(await ask(sub.token, good), { status: 200, text: 'c-1' });
      assert.equal((await h.store.websub.get(feedId))?.state, 'active');
    });

    describe('content distribution', () => {
      const topic = () => `${hub.url}/pushed.xml`;
      let feedId: number;
      const entryGuids = async () =>
        (await h.store.entries.listByFeed(feedId, 100)).map((e) => e.guid).sort();

      before(async () => {
        hub.serve('/pushed.xml', rss([item('p0')]), RSS, linkHeader(hub.hubUrl, topic()));
        feedId = await follow('/pushed.xml');
      });

      for (const algorithm of ['sha1', 'sha256', 'sha384', 'sha512']) {
        it(`stores a delivery signed with ${algorithm}, answered 2xx at once`, async () => {
          const statuses = await hub.publish(topic(), rss([item(`p-${algorithm}`)]), RSS, { algorithm });
          assert.deepEqual(statuses, [202]);
          await push.idle();
          assert.ok((await entryGuids()).includes(`p-${algorithm}`));
        });
      }

      it('ignores a delivery with a wrong signature (2xx) and refuses an unsigned one (4xx)', async () => {
        const before = await entryGuids();
        const wrong = await hub.publish(topic(), rss([item('p-wrong')]), RSS, { secret: 'not the secret' });
        assert.deepEqual(wrong, [202]);
        const bad = await hub.publish(topic(), rss([item('p-bad')]), RSS, { algorithm: 'md5' });
        assert.deepEqual(bad, [202]);
        const unsigned = await hub.publish(topic(), rss([item('p-unsigned')]), RSS, 'unsigned');
        assert.deepEqual(unsigned, [400]);
        await push.idle();
        assert.deepEqual(await entryGuids(), before);
      });

      it('writes one heartbeat a delivery and keeps the poll schedule and validators', async () => {
        const feed = await h.store.feeds.get(feedId);
        await hub.publish(topic(), rss([item('p-beat')]), RSS);
        await push.idle();
        const after = await h.store.feeds.get(feedId);
        assert.equal(after?.nextCheckAt, feed?.nextCheckAt);
        assert.equal(after?.bodyHash, feed?.bodyHash);
        const [beat] = await h.store.heartbeats.list(feedId, 1);
        assert.equal(beat?.newCount, 1);
        assert.match(beat?.message ?? '', /pushed by the hub/);
      });

      it('refuses a body larger than a fetched feed may be (413)', async () => {
        const sub = await h.store.websub.get(feedId);
        // a connection of its own: the server answers before it has read the body, and closes it
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(`${base}/websub/${sub?.token}`, {
            method: 'POST',
            agent: false,
            headers: { 'content-type': RSS, 'x-hub-signature': 'sha256=00' },
          });
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end('x'.repeat(h.deps.config.maxBodyBytes + 1));
        });
        assert.equal(status, 413);
      });

      it('puts a pushed entry into the Microsub timeline and the web UI within 2 seconds, the poll interval an hour', async () => {
        assert.equal(h.deps.config.pollIntervalSeconds, 3600);
        const channel = (await h.store.channels.list()).find((c) => c.name === 'Test');
        assert.ok(channel);
        const started = performance.now();
        await hub.publish(topic(), rss([item('p-live')]), RSS);
        let found = false;
        while (!found && performance.now() - started < 2000) {
          const answer = await h.get({ action: 'timeline', channel: channel.uid });
          const items = (answer.body['items'] ?? []) as { url?: string }[];
          found = items.some((i) => i.url === 'https://example.com/p-live');
          if (!found) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(found, 'the pushed entry is in the timeline');
        const page = await web.get(`/c/${encodeURIComponent(channel.uid)}`);
        assert.match(page.text, /Title p-live/, 'and in the web UI');
        assert.ok(performance.now() - started < 2000);
      });

      it('polls an active feed at a relaxed interval, and as usual once a poll finds an entry not pushed', async () => {
        await pollAndSettle(feedId);
        const relaxed = await h.store.feeds.get(feedId);
        const now = h.clock.now().getTime();
        assert.ok(Date.parse(relaxed?.nextCheckAt ?? '') - now >= 11 * HOUR_MS, relaxed?.nextCheckAt);
        hub.serve(
          '/pushed.xml',
          rss([item('p0'), item('p-never-pushed')]),
          RSS,
          linkHeader(hub.hubUrl, topic()),
        );
        await pollAndSettle(feedId);
        const sub = await h.store.websub.get(feedId);
        assert.ok(sub?.unreliableAt, 'marked unreliable');
        assert.match(sub?.message ?? '', /never pushed/);
        await pollAndSettle(feedId);
        const usual = await h.store.feeds.get(feedId);
        assert.ok(Date.parse(usual?.nextCheckAt ?? '') - h.clock.now().getTime() <= 5 * HOUR_MS);
      });
    });

    it('renews a short lease at about 80% of it', async () => {
      hub.options.leaseSeconds = 1000;
      const topic = `${hub.url}/lease.xml`;
      hub.serve('/lease.xml', rss([item('ls1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/lease.xml');
      const first = await h.store.websub.get(feedId);
      assert.equal(first?.leaseSeconds, 1000);
      const asked = hub.received.filter((r) => r.topic === topic).length;
      h.clock.advance(700_000);
      await push.keep();
      await settle();
      assert.equal(hub.received.filter((r) => r.topic === topic).length, asked, 'not renewed at 70%');
      h.clock.advance(110_000);
      await push.keep();
      await settle();
      const renewal = lastRequestFor(topic);
      assert.equal(hub.received.filter((r) => r.topic === topic).length, asked + 1);
      assert.equal(renewal?.callback, first ? `${base}/websub/${first.token}` : '');
      assert.equal(renewal?.verification?.echoed, true);
      const renewed = await h.store.websub.get(feedId);
      assert.equal(renewed?.state, 'active');
      assert.equal(Date.parse(renewed?.expiresAt ?? ''), h.clock.now().getTime() + 1000_000);
      delete hub.options.leaseSeconds;
    });

    it('polls by the end of a lease the hub does not renew, and tells it as failed then', async () => {
      hub.options.leaseSeconds = 1000;
      const topic = `${hub.url}/short.xml`;
      hub.serve('/short.xml', rss([item('sh1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/short.xml');
      delete hub.options.leaseSeconds;
      // a good poll while push works is relaxed, but not past the lease's end: the usual interval (1 h)
      // then, not the 12 h of a feed whose lease lasts
      await pollAndSettle(feedId);
      const sub = await h.store.websub.get(feedId);
      const feed = await h.store.feeds.get(feedId);
      assert.equal(sub?.state, 'active');
      const next = Date.parse(feed?.nextCheckAt ?? '') - h.clock.now().getTime();
      assert.ok(next > 0 && next <= 2 * HOUR_MS, `${feed?.nextCheckAt}`);
      assert.equal(feed && (statusJson(feed, sub, h.clock.now()).push as { state: string }).state, 'active');
      // the hub refuses the renewal; once the lease is over, status --json says what status says
      hub.options.status = 500;
      try {
        h.clock.advance(900_000);
        await push.keep();
        await settle();
        h.clock.advance(200_000);
        const after = await h.store.websub.get(feedId);
        assert.equal(after?.state, 'active', 'the stored row still says active');
        const json = feed && (statusJson(feed, after, h.clock.now()).push as { state: string });
        assert.equal(json?.state, 'failed');
        assert.match(describePush(after, true, h.clock.now()), /^failed: the lease ran out/);
      } finally {
        hub.options.status = 202;
      }
    });

    it('unsubscribes from the hub when no one follows the feed any more', async () => {
      const topic = `${hub.url}/unfollow.xml`;
      hub.serve('/unfollow.xml', rss([item('u1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/unfollow.xml');
      const sub = await h.store.websub.get(feedId);
      assert.ok(sub && hub.subscribers.has(`${base}/websub/${sub.token}`));
      const channel = (await h.store.channels.list()).find((c) => c.name === 'Test');
      await h.store.channels.unsubscribe(channel?.id ?? 0, feedId);
      await h.store.feeds.sweepUnfollowed(h.clock.now().toISOString(), 30);
      // a push between the unfollow and the unsubscribe is not kept: 410 tells the hub to stop
      const body = rss([item('u1'), item('u-late')]);
      const delivery = {
        'content-type': RSS,
        'x-hub-signature': `sha256=${createHmac('sha256', sub.secret).update(body).digest('hex')}`,
      };
      assert.equal((await push.deliver(sub.token, delivery, Buffer.from(body))).status, 410);
      await push.idle();
      const guids = (await h.store.entries.listByFeed(feedId, 100)).map((e) => e.guid);
      assert.deepEqual(guids, ['u1']);
      await push.keep();
      await settle();
      const request = lastRequestFor(topic);
      assert.equal(request?.mode, 'unsubscribe');
      assert.equal(request?.verification?.echoed, true);
      assert.equal(hub.subscribers.has(`${base}/websub/${sub.token}`), false);
      assert.equal(await h.store.websub.get(feedId), undefined);
      // and once the subscription is gone, the callback answers 410 to whatever the hub still sends
      assert.equal((await push.deliver(sub.token, delivery, Buffer.from(body))).status, 410);
    });

    it('keeps polling as before when the hub is down, and tries again a day later', async () => {
      hub.options.status = 500;
      const topic = `${hub.url}/down.xml`;
      hub.serve('/down.xml', rss([item('d1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/down.xml');
      const sub = await h.store.websub.get(feedId);
      assert.equal(sub?.state, 'failed');
      assert.match(sub?.message ?? '', /HTTP 500/);
      const shown = await pushOnPage(feedId);
      assert.equal(shown.state, 'failed');
      assert.match(shown.words, /^failed: the hub 127\.0\.0\.1:\d+ answered HTTP 500/);
      await pollAndSettle(feedId);
      const feed = await h.store.feeds.get(feedId);
      assert.equal(feed?.status, 'ok');
      assert.ok(Date.parse(feed?.nextCheckAt ?? '') - h.clock.now().getTime() <= 5 * HOUR_MS);
      hub.options.status = 202;
      h.clock.advance(25 * HOUR_MS);
      await push.keep();
      await settle();
      assert.equal((await h.store.websub.get(feedId))?.state, 'active');
    });

    it('marks a denied subscription and keeps polling the feed as before', async () => {
      hub.options.deny = 'not on this hub';
      const topic = `${hub.url}/denied.xml`;
      hub.serve('/denied.xml', rss([item('n1')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/denied.xml');
      delete hub.options.deny;
      const sub = await h.store.websub.get(feedId);
      assert.equal(sub?.state, 'denied');
      assert.match(sub?.message ?? '', /not on this hub/);
      const feedNow = await h.store.feeds.get(feedId);
      assert.equal(
        feedNow && (statusJson(feedNow, sub, h.clock.now()).push as { state: string }).state,
        'denied',
      );
      assert.deepEqual(await pushOnPage(feedId), {
        state: 'denied',
        words: 'denied: the hub denied the subscription: not on this hub; the feed is polled as usual',
      });
      await pollAndSettle(feedId);
      const feed = await h.store.feeds.get(feedId);
      assert.ok(Date.parse(feed?.nextCheckAt ?? '') - h.clock.now().getTime() <= 5 * HOUR_MS);
      assert.equal((await h.store.websub.get(feedId))?.state, 'denied', 'not asked again');
    });

    it('lets another process of the database verify and take deliveries: each stored once', async () => {
      const topic = `${hub.url}/peer.xml`;
      hub.serve('/peer.xml', rss([item('q0')]), RSS, linkHeader(hub.hubUrl, topic));
      const feedId = await follow('/peer.xml');
      const sub = await h.store.websub.get(feedId);
      assert.ok(sub);
      // a second `serve` on the same database, reached by the hub through the same base URL
      const peer = new WebSub(pollDeps(await backend.openPeer(h.store), h.clock), base);
      await h.store.websub.update(sub.token, { pendingMode: 'subscribe' });
      const query = {
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.challenge': 'peer',
        'hub.lease_seconds': '500',
      };
      assert.deepEqual(await peer.verify(sub.token, query), { status: 200, body: 'peer' });
      assert.equal((await h.store.websub.get(feedId))?.leaseSeconds, 500);
      const body = rss([item('q0'), item('q1')]);
      const signature = `sha256=${createHmac('sha256', sub.secret).update(body).digest('hex')}`;
      const delivery = { 'content-type': RSS, 'x-hub-signature': signature };
      assert.equal((await peer.deliver(sub.token, delivery, Buffer.from(body))).status, 202);
      await peer.idle();
      // the hub retries the same delivery at the first process: nothing is stored twice
      assert.equal((await push.deliver(sub.token, delivery, Buffer.from(body))).status, 202);
      await push.idle();
      const guids = (await h.store.entries.listByFeed(feedId, 100)).map((e) => e.guid).sort();
      assert.deepEqual(guids, ['q0', 'q1']);
    });

    it('answers 404 to every callback while push is off', async () => {
      delete h.deps.poll.push;
      try {
        const response = await fetch(`${base}/websub/anything?hub.mode=subscribe&hub.challenge=x`);
        assert.equal(response.status, 404);
      } finally {
        h.deps.poll.push = push;
      }
    });
  });
}
