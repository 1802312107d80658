// Fixture sites for the subscriptions tests: feeds, a page linking to its feed, a page linking to none.
import { after, before } from 'node:test';
import type { Config } from '../../src/config.js';
import type { Store } from '../../src/store/index.js';
import type { SubscriptionDeps } from '../../src/subscriptions/index.js';
import { redirectTo, send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, type TestClock } from '../helpers/poll-harness.js';
import type { StoreBackend } from '../helpers/temp-store.js';

const RSS = { 'content-type': 'application/rss+xml' };
const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** A local site: /a.xml and /b.xml (RSS, site https://example.com/), /blog/ (links /blog/feed.xml), /nothing/, /missing.xml (404). */
export function startSite(): Promise<TestServer> {
  const feed = (name: string) =>
    rss([
      { guid: `${name}1`, title: `${name} one` },
      { guid: `${name}2`, title: `${name} two` },
    ]);
  return startServer({
    '/a.xml': (_req, res) => send(res, 200, feed('a'), RSS),
    '/b.xml': (_req, res) => send(res, 200, feed('b').replace('Test feed', 'B feed'), RSS),
    '/blog/': (_req, res) =>
      send(
        res,
        200,
        '<html><head><link rel="alternate" type="application/rss+xml" href="/blog/feed.xml"></head></html>',
        HTML,
      ),
    '/blog/feed.xml': (_req, res) =>
      send(res, 200, feed('blog').replace('https://example.com/', 'https://blog.example/'), RSS),
    // a page whose feed link is dead
    '/dead-link/': (_req, res) =>
      send(
        res,
        200,
        '<html><head><link rel="alternate" type="application/rss+xml" href="/dead-link/feed.xml"></head></html>',
        HTML,
      ),
    '/dead-link/feed.xml': (_req, res) => send(res, 404, 'not here', HTML),
    // a permanent redirect, then a temporary one: followed at the temporary one's URL
    '/perm.xml': redirectTo('/temp.xml', 301),
    '/temp.xml': redirectTo('/blog/feed.xml?via=temp', 302),
    '/nothing/': (_req, res) =>
      send(res, 200, '<html><head><title>x</title></head><body>none</body></html>', HTML),
  });
}

/** The module's dependencies on this store, with the real fetcher against the local site. */
export function subscriptionDeps(
  store: Store,
  clock: TestClock,
  config: Partial<Config> = {},
): SubscriptionDeps {
  return { store, poll: pollDeps(store, clock, { config }), now: clock.now };
}

/** Requests the site received for this path. */
export function hits(server: TestServer, path: string): number {
  return server.requests.filter((r) => r.path === path).length;
}

/** The fixture site and the module's dependencies on a fresh store, set by `withSite`'s hooks. */
export interface SiteContext {
  site: TestServer;
  deps: SubscriptionDeps;
}

/** Registers the hooks of a describe block: the site and a store of this backend before, both gone after. */
export function withSite(backend: StoreBackend, clock: TestClock): SiteContext {
  const context = {} as SiteContext;
  before(async () => {
    context.site = await startSite();
    context.deps = subscriptionDeps(await backend.open(), clock);
  });
  after(async () => {
    await context.site.close();
    await backend.cleanup();
  });
  return context;
}
