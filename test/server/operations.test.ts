// The operator's endpoints of issue 25 on both databases: /healthz (no login; 503 when the database does
// not answer) and /metrics (off by default; loopback or a bearer token; the Prometheus text format, its
// feed counts equal to `tidings status --json`'s, its poll counters moved by the poller's hooks).
import assert from 'node:assert/strict';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import type { Config } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { Metrics } from '../../src/metrics/index.js';
import { PollEvents, pollOnce } from '../../src/poll/index.js';
import { createApp } from '../../src/server/app.js';
import type { ServerDeps } from '../../src/server/deps.js';
import { healthRoutes, isDatabaseUp } from '../../src/server/operations.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tidings } from '../helpers/cli.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, TEST_CONFIG, testClock } from '../helpers/poll-harness.js';
import { type Family, parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { addFollowedFeed, PG_SKIP_MESSAGE, storeBackends } from '../helpers/temp-store.js';

/** What @hono/node-server hands the app as its env: the socket, whose address getConnInfo reads. */
function fromAddress(remoteAddress: string) {
  return { incoming: { socket: { remoteAddress, remotePort: 50_000, remoteFamily: 'IPv4' } } };
}
const LOOPBACK = fromAddress('127.0.0.1');
const REMOTE = fromAddress('192.0.2.7');
const TOKEN = 'scrape-me-3f9c2a';

/** The app of a test: web UI, APIs and the operator's endpoints, its polls counted by `metrics`. */
function appOf(store: Store, config: Partial<Config>) {
  const now = () => new Date();
  const clock = testClock(new Date().toISOString());
  const metrics = new Metrics({ store, now });
  const full = { ...TEST_CONFIG, ...config };
  const deps: ServerDeps = {
    store,
    config: full,
    log: silentLogger,
    poll: pollDeps(store, clock, { hooks: metrics.pollHooks(), config: full }),
    events: new PollEvents(),
    indieAuth: {},
    now,
    metrics,
  };
  return { app: createApp(deps), deps, metrics, clock };
}

async function scrape(app: Hono, env: object = LOOPBACK, headers: Record<string, string> = {}) {
  const res = await app.request('/metrics', { headers }, env);
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  // not a number is spelled NaN, as the format writes it (prom-client writes Nan; strict readers refuse it)
  assert.doesNotMatch(text, / (?!NaN$)[Nn][Aa][Nn]$/m);
  return parsePrometheusText(text);
}

/** The feed counts of tidings_feeds, by health, zeros left out. */
function feedCounts(families: Map<string, Family>): Record<string, number> {
  const family = families.get('tidings_feeds');
  assert.ok(family, 'tidings_feeds is missing');
  assert.equal(family.type, 'gauge');
  const counts: Record<string, number> = {};
  for (const sample of family.samples)
    if (sample.value > 0) counts[sample.labels['health'] as string] = sample.value;
  return counts;
}

const DAY_MS = 86_400_000;

for (const backend of storeBackends()) {
  describe(`/healthz and /metrics (${backend.name})`, { skip: backend.skip }, () => {
    let store: Store;
    let server: TestServer;
    let h: ReturnType<typeof appOf>;
    let app: Hono;

    before(async () => {
      store = await backend.open();
      server = await startServer({
        '/ok.xml': (_req, res) =>
          send(
            res,
            200,
            rss([
              { guid: 'a', title: 'One' },
              { guid: 'b', title: 'Two' },
            ]),
            {
              'content-type': 'application/rss+xml',
            },
          ),
        '/broken.xml': (_req, res) => send(res, 500, 'oops'),
      });
      h = appOf(store, { metrics: true });
      app = h.app;
    });
    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    it('answers /healthz without a login: 200 {"status":"ok","database":"ok"}', async () => {
      const res = await app.request('/healthz');
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: 'ok', database: 'ok' });
      assert.equal(res.headers.get('cache-control'), 'no-store');
      // the same app keeps its pages behind the login
      assert.equal((await app.request('/feeds')).status, 303);
    });

    it('answers /healthz 503 when the database does not answer (its store closed)', async () => {
      const closed = await backend.open();
      const { app: down } = appOf(closed, { metrics: true });
      await closed.close();
      const res = await down.request('/healthz');
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { status: 'error', database: 'unavailable' });
      // the feed counts cannot be read either: the scrape fails, and Prometheus marks the target down
      assert.equal((await down.request('/metrics', {}, LOOPBACK)).status, 503);
    });

    it('has no /metrics unless TIDINGS_METRICS is true: 404, from loopback too', async () => {
      const { app: off } = appOf(store, {});
      const res = await off.request('/metrics', {}, LOOPBACK);
      assert.equal(res.status, 404);
      assert.doesNotMatch(await res.text(), /tidings_/);
    });

    it('answers /metrics to loopback clients only when no token is set (the socket, not X-Forwarded-For)', async () => {
      for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
        await scrape(app, fromAddress(address));
      assert.equal((await app.request('/metrics', {}, REMOTE)).status, 403);
      const forwarded = await app.request(
        '/metrics',
        { headers: { 'x-forwarded-for': '127.0.0.1' } },
        REMOTE,
      );
      assert.equal(forwarded.status, 403);
      assert.match(await forwarded.text(), /loopback/);
      // a request without a socket (no address at all) is not trusted either
      assert.equal((await app.request('/metrics')).status, 403);
    });

    it('asks every client for the bearer token when one is set, loopback too', async () => {
      const { app: guarded } = appOf(store, { metrics: true, metricsToken: TOKEN });
      const asked = (env: object, authorization?: string) =>
        guarded.request('/metrics', authorization ? { headers: { authorization } } : {}, env);
      assert.equal((await asked(LOOPBACK)).status, 403);
      assert.equal((await asked(LOOPBACK, `Bearer ${TOKEN}x`)).status, 403);
      assert.equal((await asked(REMOTE, `Bearer ${TOKEN.slice(0, -1)}`)).status, 403);
      assert.equal(
        (await asked(REMOTE, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`)).status,
        403,
      );
      assert.equal((await asked(REMOTE, 'Bearer ')).status, 403);
      await scrape(guarded, REMOTE, { authorization: `Bearer ${TOKEN}` });
      await scrape(guarded, LOOPBACK, { authorization: `bearer ${TOKEN}` });
    });

    it('exposes every metric of issue 25 and the process metrics, in the strict text format', async () => {
      const families = await scrape(app);
      const types = Object.fromEntries([...families.values()].map((f) => [f.name, f.type]));
      assert.equal(types['tidings_feeds'], 'gauge');
      assert.equal(types['tidings_polls_total'], 'counter');
      assert.equal(types['tidings_fetch_duration_seconds'], 'histogram');
      assert.equal(types['tidings_entries_stored_total'], 'counter');
      assert.equal(types['tidings_http_requests_total'], 'counter');
      assert.equal(types['tidings_alerts_sent_total'], 'counter');
      // prom-client's default metrics: the process and Node's event loop
      assert.equal(types['process_cpu_user_seconds_total'], 'counter');
      assert.equal(types['process_resident_memory_bytes'], 'gauge');
      assert.equal(types['nodejs_eventloop_lag_seconds'], 'gauge');
      for (const outcome of ['ok', 'not_modified', 'fetch_error', 'parse_error', 'encoding_error', 'gone'])
        assert.equal(typeof sampleValue(families, 'tidings_polls_total', { outcome }), 'number', outcome);
      assert.equal(sampleValue(families, 'tidings_alerts_sent_total', { kind: 'feed.failing' }), 0);
      for (const health of ['ok', 'silent', 'new', 'paused', 'unfollowed', 'gone'])
        assert.equal(typeof sampleValue(families, 'tidings_feeds', { health }), 'number', health);
    });

    it('counts the feeds by health exactly as `tidings status --json` does', async () => {
      const t = new Date().toISOString();
      const ago = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
      const feed = (name: string) => addFollowedFeed(store, `https://health.example/${name}.xml`, t);
      await feed('new');
      await store.feeds.update((await feed('ok')).id, {
        status: 'ok',
        lastNewEntryAt: ago(1),
        cadenceSeconds: 3600,
      });
      await store.feeds.update((await feed('silent')).id, {
        status: 'ok',
        lastNewEntryAt: ago(30),
        cadenceSeconds: 3600,
      });
      await store.feeds.update((await feed('quiet')).id, { status: 'not_modified' });
      for (const name of ['down-1', 'down-2'])
        await store.feeds.update((await feed(name)).id, { status: 'fetch_error' });
      await store.feeds.update((await feed('html')).id, { status: 'parse_error' });
      await store.feeds.update((await feed('latin')).id, { status: 'encoding_error' });
      await store.feeds.update((await feed('gone')).id, { status: 'gone' });
      await store.feeds.update((await feed('paused')).id, { status: 'fetch_error', paused: true });
      // followed by nobody: kept for its history, polled no more
      const orphan = await store.feeds.add('https://health.example/orphan.xml', t);
      await store.feeds.update(orphan.id, { status: 'ok', unfollowedAt: t });

      const status = await tidings(['status', '--json', '--database', backend.urlOf(store)], {});
      assert.equal(status.code, 0, status.stderr);
      const expected: Record<string, number> = {};
      for (const row of (JSON.parse(status.stdout) as { feeds: { health: string }[] }).feeds)
        expected[row.health] = (expected[row.health] ?? 0) + 1;
      // the store holds a feed of each health, so that the comparison means something
      for (const health of ['new', 'ok', 'silent', 'not_modified', 'fetch_error', 'parse_error'])
        assert.ok((expected[health] ?? 0) > 0, `no ${health} feed`);
      for (const health of ['encoding_error', 'gone', 'paused', 'unfollowed'])
        assert.ok((expected[health] ?? 0) > 0, `no ${health} feed`);
      assert.equal(expected['fetch_error'], 2);
      assert.deepEqual(feedCounts(await scrape(app)), expected);
    });

    it('counts polls by outcome, fetch times and new entries of its own poller only', async () => {
      const t = new Date().toISOString();
      const good = await addFollowedFeed(store, `${server.url}/ok.xml`, t);
      const bad = await addFollowedFeed(store, `${server.url}/broken.xml`, t);
      const before = await scrape(h.app);
      // the poller of the app's deps (as serve's, and the web UI's refresh), its hooks the app's metrics'
      const polled = await pollOnce(h.deps.poll, { feedIds: [good.id, bad.id], force: true });
      assert.equal(polled.feeds, 2);
      const after = await scrape(h.app);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        sampleValue(after, name, labels) - sampleValue(before, name, labels);
      assert.equal(moved('tidings_polls_total', { outcome: 'ok' }), 1);
      assert.equal(moved('tidings_polls_total', { outcome: 'fetch_error' }), 1);
      assert.equal(moved('tidings_polls_total', { outcome: 'gone' }), 0);
      assert.equal(moved('tidings_entries_stored_total'), 2);
      assert.equal(moved('tidings_fetch_duration_seconds_count'), 2);
      assert.ok(moved('tidings_fetch_duration_seconds_sum') > 0);
      // the same document again, a minute later: a poll, no new entry
      h.clock.advance(60_000);
      await pollOnce(h.deps.poll, { feedIds: [good.id], force: true });
      const again = await scrape(h.app);
      assert.equal(
        sampleValue(again, 'tidings_polls_total', { outcome: 'ok' }) -
          sampleValue(after, 'tidings_polls_total', { outcome: 'ok' }),
        1,
      );
      assert.equal(
        sampleValue(again, 'tidings_entries_stored_total'),
        sampleValue(after, 'tidings_entries_stored_total'),
      );
      // another app in this process has a registry of its own: it counted none of these polls
      const other = appOf(store, { metrics: true });
      const elsewhere = await scrape(other.app);
      assert.equal(sampleValue(elsewhere, 'tidings_polls_total', { outcome: 'ok' }), 0);
      assert.equal(sampleValue(elsewhere, 'tidings_entries_stored_total'), 0);
    });

    it('counts HTTP requests by the pattern of their route and their status, never by the raw path', async () => {
      const { app: fresh } = appOf(store, { metrics: true });
      for (const id of ['12345', '67890']) assert.equal((await fresh.request(`/feeds/${id}`)).status, 303);
      assert.equal((await fresh.request('/healthz')).status, 200);
      assert.equal((await fresh.request('/feed-icons/1/not-a-signature')).status, 404);
      const family = (await scrape(fresh)).get('tidings_http_requests_total');
      assert.ok(family);
      const counted = Object.fromEntries(
        family.samples.map((s) => [`${s.labels['route']} ${s.labels['status']}`, s.value]),
      );
      assert.equal(counted['/feeds/:id 303'], 2);
      assert.equal(counted['/healthz 200'], 1);
      assert.equal(counted['/feed-icons/:feedId/:signature 404'], 1);
      assert.ok(family.samples.every((s) => !/12345|67890|not-a-signature/.test(s.labels['route'] ?? '')));
    });
  });
}

describe('/healthz against a database that does not answer', () => {
  it('gives up on a ping that never ends after its timeout, and on one that fails at once', async () => {
    const started = Date.now();
    assert.equal(await isDatabaseUp({ ping: () => new Promise<void>(() => {}) }, 50), false);
    assert.ok(Date.now() - started < 1_000);
    assert.equal(await isDatabaseUp({ ping: () => Promise.reject(new Error('gone')) }, 1_000), false);
    assert.equal(await isDatabaseUp({ ping: () => Promise.resolve() }, 1_000), true);
  });

  const pgUrl = process.env['TIDINGS_TEST_PG_URL'];
  it('answers 503 when PostgreSQL stops answering, within its timeout, and when it refuses connections', {
    skip: pgUrl ? false : PG_SKIP_MESSAGE,
  }, async () => {
    const proxy = await startPgProxy(new URL(pgUrl as string));
    const url = new URL(pgUrl as string);
    url.host = `127.0.0.1:${proxy.port}`;
    const store = await openStore(url.toString());
    const healthz = healthRoutes({ store, log: silentLogger, timeoutMs: 200 });
    try {
      assert.equal((await healthz.request('/healthz')).status, 200);
      // the network drops every packet: connections open and nothing ever comes back. The pooled
      // connection dies (a query on it fails at once, and must not end the process: dialect.ts) ...
      proxy.swallow();
      const dropped = await healthz.request('/healthz');
      assert.equal(dropped.status, 503);
      assert.deepEqual(await dropped.json(), { status: 'error', database: 'unavailable' });
      // ... and a new one hangs: the answer comes at the timeout
      const started = Date.now();
      assert.equal((await healthz.request('/healthz')).status, 503);
      const tookMs = Date.now() - started;
      assert.ok(tookMs >= 150 && tookMs < 2_000, `took ${tookMs} ms`);
      // the server is gone: connections are refused
      await proxy.refuse();
      assert.equal((await healthz.request('/healthz')).status, 503);
    } finally {
      await proxy.refuse();
      await store.close();
    }
  });
});

/**
 * A TCP proxy in front of PostgreSQL that can stop answering (connections accepted, nothing forwarded)
 * or refuse connections, as a database behind a broken network or a stopped server does.
 */
async function startPgProxy(target: URL) {
  const sockets = new Set<Socket>();
  let swallowing = false;
  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    if (swallowing) return;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    swallow() {
      swallowing = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    async refuse() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
