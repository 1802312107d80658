// Drives the Microsub endpoint the way a client does: HTTP requests to the Hono app in process, a real
// store, fixture feeds from a local HTTP server, and the poller with a test clock.
import { Hono } from 'hono';
import { closeSharedAgents } from '../../src/fetch/index.js';
import { silentLogger } from '../../src/log.js';
import type { MicrosubOptions } from '../../src/microsub/context.js';
import type { IndieAuthSettings } from '../../src/microsub/deps.js';
import { microsubRoutes } from '../../src/microsub/routes.js';
import { PollEvents } from '../../src/poll/events.js';
import { pollOnce } from '../../src/poll/poller.js';
import { createApp, microsubDeps } from '../../src/server/app.js';
import type { ServerDeps } from '../../src/server/deps.js';
import type { Store } from '../../src/store/index.js';
import { hashToken, newToken } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, TEST_CONFIG, type TestClock, testClock } from '../helpers/poll-harness.js';
import type { StoreBackend } from '../helpers/temp-store.js';

export const ALL_SCOPES = 'read follow mute block channels';

/** A response as a client sees it. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** How a request is sent: query string (GET), form body (POST, the default), JSON body, or a POST with only a query string (Together). */
export type Style = 'form' | 'json' | 'query';

export interface Harness {
  app: Hono;
  deps: ServerDeps;
  store: Store;
  server: TestServer;
  clock: TestClock;
  events: PollEvents;
  /** A token with every scope. */
  token: string;
  /** Fixture documents by path, e.g. docs['/a.xml'] = rss([...]). */
  docs: Record<string, { body: string; type: string }>;
  /** GET /microsub with these parameters. */
  get(params: Record<string, string | string[]>, token?: string | null): Promise<Answer>;
  /** POST /microsub with these parameters. */
  post(
    params: Record<string, string | string[]>,
    options?: { token?: string | null; style?: Style },
  ): Promise<Answer>;
  /** Creates a token with these scopes (as `tidings token create` does). */
  tokenWith(scope: string): Promise<string>;
  /** Polls one followed feed now. */
  poll(url: string): Promise<void>;
  url(path: string): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  indieAuth?: IndieAuthSettings;
  microsub?: MicrosubOptions;
  events?: PollEvents;
}

/** Opens a store of this backend, a fixture server and the endpoint. */
export async function openHarness(backend: StoreBackend, options: HarnessOptions = {}): Promise<Harness> {
  const docs: Harness['docs'] = {};
  const fixtureServer = await startFixtureServer(docs);
  const store = await backend.open();
  const clock = testClock();
  const events = options.events ?? new PollEvents();
  const deps = serverDeps(store, clock, events, options.indieAuth ?? {});
  // the whole server, as clients reach it; endpoint options (a short heartbeat) need the endpoint alone,
  // mounted where server/app.ts mounts it
  const app = options.microsub
    ? new Hono().route('/microsub', microsubRoutes(microsubDeps(deps), options.microsub))
    : createApp(deps);
  const tokenWith = async (scope: string) => {
    const token = newToken();
    await store.accounts.createToken({ tokenHash: hashToken(token), scope }, clock.now().toISOString());
    return token;
  };
  const token = await tokenWith(ALL_SCOPES);
  const request = (init: RequestInit, query: string, bearer: string | null | undefined) => {
    const headers = new Headers(init.headers);
    const auth = bearer === undefined ? token : bearer;
    if (auth !== null) headers.set('authorization', `Bearer ${auth}`);
    return Promise.resolve(app.request(`/microsub${query}`, { ...init, headers })).then(toAnswer);
  };
  return {
    app,
    deps,
    store,
    server: fixtureServer,
    clock,
    events,
    token,
    docs,
    get: (params, bearer) => request({ method: 'GET' }, `?${formOf(params)}`, bearer),
    post: (params, opts = {}) => {
      const { init, query } = postOf(params, opts.style ?? 'form');
      return request(init, query, opts.token);
    },
    tokenWith,
    async poll(url) {
      const feed = await store.feeds.findByUrl(url);
      if (!feed) throw new Error(`harness: no feed ${url}`);
      clock.advance(60_000);
      await pollOnce(deps.poll, { feedIds: [feed.id], force: true });
    },
    url: (path) => `${fixtureServer.url}${path}`,
    async close() {
      await fixtureServer.close();
      // the fetcher's keep-alive agents would hold the test process open for seconds
      await closeSharedAgents();
    },
  };
}

/** What `tidings serve` gives the server, with the test clock and the poller fetching from local servers. */
export function serverDeps(
  store: Store,
  clock: TestClock,
  events: PollEvents,
  indieAuth: IndieAuthSettings,
): ServerDeps {
  return {
    store,
    config: TEST_CONFIG,
    log: silentLogger,
    poll: pollDeps(store, clock, { hooks: events.hooks() }),
    events,
    indieAuth,
    now: clock.now,
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A POST in one of the ways clients send them. */
function postOf(
  params: Record<string, string | string[]>,
  style: Style,
): { init: RequestInit; query: string } {
  if (style === 'query')
    return { init: { method: 'POST', body: '', headers: FORM }, query: `?${formOf(params)}` };
  if (style === 'json') {
    const headers = { 'content-type': 'application/json' };
    return { init: { method: 'POST', body: JSON.stringify(params), headers }, query: '' };
  }
  return { init: { method: 'POST', body: formOf(params), headers: FORM }, query: '' };
}

function startFixtureServer(docs: Harness['docs']): Promise<TestServer> {
  const serve = (path: string) => (_req: unknown, res: Parameters<typeof send>[0]) => {
    const doc = docs[path];
    if (doc) send(res, 200, doc.body, { 'content-type': doc.type });
    else send(res, 404, 'not found');
  };
  // startServer routes by exact path ("METHOD /path" first): a proxy answers every path from `docs`
  const routes = new Proxy(
    {},
    { get: (_target, key) => (typeof key === 'string' && key.startsWith('/') ? serve(key) : undefined) },
  );
  return startServer(routes);
}

/** Parameters as a form: arrays as `name[]` unless the name already has brackets. */
export function formOf(params: Record<string, string | string[]>): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const v of value) form.append(key.endsWith(']') ? key : `${key}[]`, v);
    else form.append(key, value);
  }
  return form.toString();
}

async function toAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, headers: response.headers, body };
}

/** An RSS item dated `minute` minutes after 2026-02-01 00:00 UTC. */
export function item(guid: string, minute: number, extra: { title?: string; description?: string } = {}) {
  const date = new Date(Date.UTC(2026, 1, 1, 0, minute)).toUTCString();
  return {
    guid,
    title: extra.title ?? `Title ${guid}`,
    link: `https://example.com/${guid}`,
    description: extra.description ?? `Body of ${guid}`,
    pubDate: date,
  };
}
