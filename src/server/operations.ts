import { createHash, timingSafeEqual } from 'node:crypto';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { matchedRoutes, routePath } from 'hono/route';
import ipaddr from 'ipaddr.js';
import { clientAddress } from '../http/index.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/index.js';
import type { Store } from '../store/index.js';

// What an operator's tools ask of tidings (issue 25): /healthz for a load balancer or a container's
// HEALTHCHECK, /metrics for Prometheus. Neither needs a login; /metrics has a guard of its own.

/** How long /healthz waits for the database: a health check must answer, even when the database does not. */
export const HEALTH_TIMEOUT_MS = 2_000;

const NO_STORE = 'no-store';

/**
 * Resolves to true when the store answers a trivial query within `timeoutMs`, false when it fails or
 * takes longer (a PostgreSQL server that accepts connections and never answers).
 */
export async function isDatabaseUp(store: Pick<Store, 'ping'>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  // a ping that fails after the timeout has answered is settled here, never left unhandled
  const answered = store.ping().then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** GET /healthz: 200 `{"status":"ok","database":"ok"}`, or 503 when the database does not answer. */
export function healthRoutes(deps: { store: Store; log: Logger; timeoutMs?: number }): Hono {
  const app = new Hono();
  app.get('/healthz', async (c) => {
    c.header('cache-control', NO_STORE);
    if (await isDatabaseUp(deps.store, deps.timeoutMs ?? HEALTH_TIMEOUT_MS))
      return c.json({ status: 'ok', database: 'ok' });
    deps.log.warn({ path: '/healthz' }, 'healthz: the database does not answer');
    return c.json({ status: 'error', database: 'unavailable' }, 503);
  });
  return app;
}

/**
 * GET /metrics: the Prometheus text format when TIDINGS_METRICS is on (404 otherwise, as for any unknown
 * path). With a token every request must bring it as `Authorization: Bearer TOKEN`: behind a reverse
 * proxy on the same host every request comes from loopback. Without one only loopback clients are
 * answered, judged by the socket's address (X-Forwarded-For is anyone's to write). Anything else: 403.
 */
export function metricsRoutes(deps: {
  metrics: Metrics | undefined;
  token: string | undefined;
  log: Logger;
}): Hono {
  const app = new Hono();
  app.get('/metrics', async (c) => {
    c.header('cache-control', NO_STORE);
    const { metrics } = deps;
    if (metrics === undefined) return c.text('not found', 404);
    if (!mayScrape(c, deps.token))
      return c.text(
        deps.token === undefined
          ? 'metrics: only loopback clients may read /metrics (or set TIDINGS_METRICS_TOKEN)'
          : 'metrics: a bearer token is needed (Authorization: Bearer TIDINGS_METRICS_TOKEN)',
        403,
      );
    try {
      const { contentType, text } = await metrics.render();
      return c.body(text, 200, { 'content-type': contentType });
    } catch (err) {
      // the feed counts are read from the store: a scrape fails (and Prometheus marks it down) without it
      deps.log.warn({ err, path: '/metrics' }, 'metrics: cannot read the feeds');
      return c.text('metrics: the database does not answer', 503);
    }
  });
  return app;
}

function mayScrape(c: Context, token: string | undefined): boolean {
  if (token !== undefined) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    return given !== undefined && sameSecret(given, token);
  }
  return isLoopback(clientAddress(c));
}

/** Compares in constant time: both sides are hashed first, so that neither length nor content leaks. */
function sameSecret(given: string, wanted: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(wanted));
}

/** True for 127.0.0.0/8, ::1 and ::ffff:127.x (a dual-stack socket's IPv4 clients). */
export function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

/**
 * Counts every answered request by the pattern of the route that answered it (`/feeds/:id`, never
 * `/feeds/42`: one series per route, however many feeds) and its status.
 */
export function countRequests(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    await next();
    metrics.countRequest(routeOf(c), c.res.status);
  };
}

/**
 * The request's route: the first handler registered for its method whose pattern matched (the one that
 * answers unless a middleware answers first, as the login gate does), else the pattern that answered.
 * Middleware (`use`) matches as method ALL.
 */
function routeOf(c: Context): string {
  return matchedRoutes(c).find((route) => route.method !== 'ALL')?.path ?? routePath(c);
}
