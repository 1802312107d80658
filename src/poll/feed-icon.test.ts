import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { pollDeps, rss, testClock } from '../../test/helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../../test/helpers/temp-store.js';
import type { Store } from '../store/index.js';
import {
  ICON_MAX_BYTES,
  MAX_ICON_CANDIDATES,
  pageIconUrls,
  refreshFeedIcon,
  sniffImageType,
} from './feed-icon.js';
import { IconLookups } from './icon-lookups.js';
import { pollOnce } from './poller.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkqGf4DwAEhQGA0lMiVQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACwAAAAAAQABAAA=', 'base64');
const ICO = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

describe('sniffImageType and pageIconUrls', () => {
  it('knows images by their bytes and refuses SVG and HTML', () => {
    assert.equal(sniffImageType(PNG), 'image/png');
    assert.equal(sniffImageType(GIF), 'image/gif');
    assert.equal(sniffImageType(ICO), 'image/x-icon');
    assert.equal(sniffImageType(Buffer.from(SVG)), undefined);
    assert.equal(sniffImageType(Buffer.from('<!doctype html>')), undefined);
  });

  it("reads a page's icon links, resolved, leaving SVG out", () => {
    const html =
      '<head><link rel="stylesheet" href="/a.css"><link rel="icon" type="image/svg+xml" href="/i.svg">' +
      '<link rel="shortcut icon" href="fav.gif"><link rel="apple-touch-icon" href="/touch.png"></head>';
    assert.deepEqual(pageIconUrls(html, 'https://site.example/blog/'), [
      'https://site.example/blog/fav.gif',
      'https://site.example/touch.png',
    ]);
  });
});

/** A page whose head links `count` icons, `${prefix}0.png` and on. */
function iconLinks(prefix: string, count: number): string {
  const links = Array.from({ length: count }, (_, i) => `<link rel="icon" href="${prefix}${i}.png">`);
  return `<html><head>${links.join('')}</head></html>`;
}

describe('refreshFeedIcon (local server)', () => {
  const backend = storeBackends()[0];
  let server: TestServer;
  let store: Store;
  let hasFavicon = true;
  const base = () => server.url;
  const feedXml = (extra: string, link = `${base()}/site/`) =>
    rss([{ guid: '1', title: 'One' }]).replace(
      '<link>https://example.com/</link>',
      `<link>${link}</link>${extra}`,
    );

  before(async () => {
    server = await startServer({
      '/with-image.xml': (_q, res) =>
        send(
          res,
          200,
          feedXml(`<image><url>${base()}/logo.png</url><title>t</title><link>${base()}/</link></image>`),
        ),
      '/logo.png': (_q, res) => send(res, 200, PNG, { 'content-type': 'image/png' }),
      '/page-icon.xml': (_q, res) => send(res, 200, feedXml('')),
      '/site/': (_q, res) =>
        send(res, 200, '<html><head><link rel="icon" href="/fav.gif"></head></html>', {
          'content-type': 'text/html',
        }),
      '/fav.gif': (_q, res) => send(res, 200, GIF, { 'content-type': 'text/plain' }),
      '/favicon-only.xml': (_q, res) => send(res, 200, feedXml('', `${base()}/bare/`)),
      '/favicon.ico': (_q, res) =>
        hasFavicon
          ? send(res, 200, ICO, { 'content-type': 'image/vnd.microsoft.icon' })
          : send(res, 404, 'none'),
      '/bad.xml': (_q, res) =>
        send(res, 200, feedXml(`<image><url>${base()}/big.png</url></image>`, `${base()}/svg/`)),
      '/big.png': (_q, res) =>
        send(res, 200, Buffer.concat([PNG, Buffer.alloc(ICON_MAX_BYTES)]), { 'content-type': 'image/png' }),
      '/svg/': (_q, res) =>
        send(res, 200, '<link rel="icon" href="/i.svg">', { 'content-type': 'text/html' }),
      '/i.svg': (_q, res) => send(res, 200, SVG, { 'content-type': 'image/svg+xml' }),
      // a page naming 30 icons, none of them an image
      '/many/': (_q, res) => send(res, 200, iconLinks('/many/i', 30), { 'content-type': 'text/html' }),
      '/hanging.xml': (_q, res) => send(res, 200, feedXml('', `${base()}/hang/`)),
      '/hang/': (_q, res) => send(res, 200, iconLinks('/hang/i', 4), { 'content-type': 'text/html' }),
      // icons that never answer (the server closes them at the end)
      '/hang/i0.png': () => undefined,
      '/hang/i1.png': () => undefined,
    });
    store = (await backend?.open()) as Store;
  });
  after(async () => {
    await server.close();
    await backend?.cleanup();
  });

  async function pollFeed(path: string) {
    const clock = testClock();
    const deps = pollDeps(store, clock, { config: { feedIcons: true } });
    const feed = await addFollowedFeed(store, `${base()}${path}`, clock.now().toISOString());
    await pollOnce(deps, { feedIds: [feed.id], force: true });
    await deps.icons?.idle();
    return { feed, deps, clock };
  }

  it("stores the feed's own image, found while polling", async () => {
    const { feed } = await pollFeed('/with-image.xml');
    const icon = await store.icons.get(feed.id);
    assert.equal(icon?.contentType, 'image/png');
    assert.deepEqual(Buffer.from(icon?.bytes ?? []), PNG);
  });

  it("falls back to the site's <link rel=icon>, then /favicon.ico, typed by their bytes", async () => {
    const fromPage = await pollFeed('/page-icon.xml');
    assert.equal((await store.icons.get(fromPage.feed.id))?.contentType, 'image/gif');
    const favicon = await pollFeed('/favicon-only.xml');
    assert.equal((await store.icons.get(favicon.feed.id))?.contentType, 'image/x-icon');
  });

  it('refuses oversized images and SVG, records that none was found, and looks again after a week', async () => {
    hasFavicon = false;
    const { feed, deps, clock } = await pollFeed('/bad.xml');
    const none = await store.icons.get(feed.id);
    assert.equal(none?.contentType, '');
    const asked = server.requests.length;
    const current = (await store.feeds.get(feed.id)) ?? feed;
    await refreshFeedIcon(deps, current, clock.now());
    assert.equal(server.requests.length, asked, 'not again within the week');
    clock.advance(8 * 24 * 3600 * 1000);
    await refreshFeedIcon(deps, current, clock.now());
    assert.ok(server.requests.length > asked);
    assert.ok(!(await store.icons.feedIds()).includes(feed.id));
  });

  /** Poll deps whose fetches are listed in `asked`. */
  function countingDeps(clock = testClock()) {
    const asked: string[] = [];
    const deps = pollDeps(store, clock, { config: { feedIcons: true } });
    const counting = {
      ...deps,
      fetch: (request: Parameters<typeof deps.fetch>[0]) => {
        asked.push(request.url);
        return deps.fetch(request);
      },
    };
    return { asked, counting };
  }

  it('asks at most three icons of a page that names 30, the last one /favicon.ico', async () => {
    hasFavicon = false;
    const clock = testClock();
    const { asked, counting } = countingDeps(clock);
    const feed = await store.feeds.add(`${base()}/many.xml`, clock.now().toISOString());
    await refreshFeedIcon(counting, { ...feed, siteUrl: `${base()}/many/` }, clock.now());
    const icon = (i: number) => `${base()}/many/i${i}.png`;
    assert.deepEqual(asked, [`${base()}/many/`, icon(0), icon(1), `${base()}/favicon.ico`]);
    assert.equal(asked.length, 1 + MAX_ICON_CANDIDATES);
    // the feed's own image counts as one of the three
    asked.length = 0;
    const own = await store.feeds.add(`${base()}/many2.xml`, clock.now().toISOString());
    const missing = `${base()}/missing.png`;
    await refreshFeedIcon(counting, { ...own, siteUrl: `${base()}/many/`, iconUrl: missing }, clock.now());
    assert.deepEqual(asked, [missing, `${base()}/many/`, icon(0), `${base()}/favicon.ico`]);
    assert.equal((await store.icons.get(own.id))?.contentType, '', 'none found is recorded');
  });

  it('ends the whole lookup at its deadline, and records that none was found', async () => {
    const clock = testClock();
    const { asked, counting } = countingDeps(clock);
    const feed = await store.feeds.add(`${base()}/deadline.xml`, clock.now().toISOString());
    const started = Date.now();
    await refreshFeedIcon(counting, { ...feed, siteUrl: `${base()}/hang/` }, clock.now(), {
      deadlineMs: 300,
    });
    const tookMs = Date.now() - started;
    assert.ok(tookMs < 1500, `the lookup took ${tookMs} ms`);
    assert.deepEqual(asked, [`${base()}/hang/`, `${base()}/hang/i0.png`]);
    assert.equal((await store.icons.get(feed.id))?.contentType, '');
  });

  it('records a poll without waiting for the icon; closing cancels the lookup, which records nothing', async () => {
    const clock = testClock();
    const deps = pollDeps(store, clock, { config: { feedIcons: true } });
    const feed = await addFollowedFeed(store, `${base()}/hanging.xml`, clock.now().toISOString());
    const started = Date.now();
    const summary = await pollOnce(deps, { feedIds: [feed.id], force: true });
    const pollMs = Date.now() - started;
    assert.deepEqual(summary.byStatus, { ok: 1 });
    assert.ok(pollMs < 1500, `the poll took ${pollMs} ms`);
    assert.equal((await store.heartbeats.list(feed.id, 5)).length, 1);
    const hung = () => server.requests.some((r) => r.path === '/hang/i0.png');
    for (let i = 0; i < 200 && !hung(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(hung(), 'the lookup is under way');
    const closing = Date.now();
    await deps.icons?.close();
    assert.ok(Date.now() - closing < 500, `closing took ${Date.now() - closing} ms`);
    assert.equal(await store.icons.get(feed.id), undefined, 'a cancelled lookup records nothing');
    // closed, it takes no more work
    deps.icons?.request(feed);
    await deps.icons?.idle();
    assert.equal(await store.icons.get(feed.id), undefined);
  });

  it('reads the records of the feeds handed over together, and stores their icons together', async () => {
    const clock = testClock();
    const deps = pollDeps(store, clock, { config: { feedIcons: true } });
    const calls: string[] = [];
    const icons = new Proxy(store.icons, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(name));
          return value.apply(target, args);
        };
      },
    });
    const counted = new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'icons') return icons;
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const lookups = new IconLookups({ ...deps, store: counted });
    const feeds = [];
    for (let i = 0; i < 8; i++) {
      const feed = await store.feeds.add(`${base()}/batch${i}.xml`, clock.now().toISOString());
      feeds.push({ ...feed, siteUrl: `${base()}/site/` });
    }
    const fresh = feeds[0] as (typeof feeds)[number];
    await store.icons.save(fresh.id, undefined, clock.now().toISOString());
    // counted by path: under load, a request of an earlier test (an icon that hangs) can arrive late
    const siteRequests = () =>
      server.requests.filter((r) => r.path === '/site/' || r.path === '/fav.gif').length;
    const asked = siteRequests();
    for (const feed of feeds) lookups.request(feed);
    await lookups.idle();
    assert.deepEqual(
      calls.filter((name) => name !== 'saveMany'),
      ['times'],
    );
    assert.ok(calls.filter((name) => name === 'saveMany').length <= 2, calls.join());
    for (const feed of feeds.slice(1))
      assert.equal((await store.icons.get(feed.id))?.contentType, 'image/gif', `feed ${feed.id}`);
    // seven lookups of two requests each (the page, its icon); none for the feed looked for lately
    assert.equal(siteRequests() - asked, 14);
    await lookups.close();
  });

  it('asks an unreachable site for nothing more than its page', async () => {
    const clock = testClock();
    const { asked, counting } = countingDeps(clock);
    const feed = await store.feeds.add(`${base()}/unreachable.xml`, clock.now().toISOString());
    await refreshFeedIcon(counting, { ...feed, siteUrl: 'http://127.0.0.1:1/' }, clock.now());
    assert.deepEqual(asked, ['http://127.0.0.1:1/']);
    assert.equal((await store.icons.get(feed.id))?.contentType, '');
  });
});
