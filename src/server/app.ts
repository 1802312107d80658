import { Hono } from 'hono';
import { Logins } from '../auth/index.js';
import { type FeverDeps, feverRoutes } from '../fever/index.js';
import { type GReaderDeps, greaderRoutes } from '../greader/index.js';
import { answerUnhandledError, type FeedIconUrls, logApiFailures } from '../http/index.js';
import { Metrics } from '../metrics/index.js';
import { type MicrosubDeps, microsubRoutes } from '../microsub/index.js';
import { type WebDeps, webRoutes } from '../web/index.js';
import type { ServerDeps } from './deps.js';
import { FEED_ICONS_PATH, feedIconRoutes, feedIconUrls } from './feed-icons.js';
import { countRequests, healthRoutes, metricsRoutes } from './operations.js';
import { websubRoutes } from './websub.js';

/**
 * The whole HTTP application: the Microsub endpoint at /microsub, the sync APIs under /api, the web UI
 * at /, and /healthz and /metrics for the operator.
 */
export function createApp(serverDeps: ServerDeps): Hono {
  // one set of login limits and one bound on password checks for every front end
  const deps = { ...serverDeps, logins: serverDeps.logins ?? new Logins() };
  const app = new Hono();
  const metrics = deps.config.metrics === true ? (deps.metrics ?? new Metrics(deps)) : undefined;
  // first, so that it sees every answer, whichever route gave it
  if (metrics) app.use('*', countRequests(metrics));
  // the operator's endpoints, before every front end: no login, no login redirect (operations.ts)
  app.route('/', healthRoutes(deps));
  app.route('/', metricsRoutes({ metrics, token: deps.config.metricsToken, log: deps.log }));
  // every 4xx/5xx of the APIs, with its path, status and reason (the web UI shows its own pages)
  app.use('/microsub/*', logApiFailures(deps.log, 'microsub'));
  for (const path of ['/api/fever', '/api/fever.php'])
    app.use(`${path}/*`, logApiFailures(deps.log, 'fever'));
  for (const path of ['/api/greader', '/api/greader.php'])
    app.use(`${path}/*`, logApiFailures(deps.log, 'greader'));
  // the endpoint, and the same endpoint with a slash after it (a client given https://host/microsub/)
  const microsub = microsubRoutes(microsubDeps(deps));
  app.route('/microsub', microsub);
  app.route('/microsub/', microsub);
  // the sync APIs (issue 15), before the web UI so that its login redirect never answers them
  for (const path of ['/api/fever', '/api/fever.php']) app.route(path, feverRoutes(feverDeps(deps)));
  for (const path of ['/api/greader', '/api/greader.php']) app.route(path, greaderRoutes(greaderDeps(deps)));
  // stored feed icons at signed URLs, for the apps, which have no session (feed-icons.ts)
  app.route(FEED_ICONS_PATH, feedIconRoutes(deps));
  // WebSub hubs' callbacks (issue 26): no login, before the web UI's login redirect
  app.route('/websub', websubRoutes(deps));
  app.route('/', webRoutes(webDeps(deps)));
  app.onError(answerUnhandledError(deps.log));
  return app;
}

// Each front end gets only what it uses, picked here from the server's whole set.

/** The web UI's part of the server's dependencies. */
export function webDeps(deps: ServerDeps & { logins: Logins }): WebDeps {
  const { store, config, log, poll, now, logins } = deps;
  return { store, config, log, poll, now, logins };
}

/** The Microsub endpoint's part of the server's dependencies. */
export function microsubDeps(deps: ServerDeps): MicrosubDeps {
  const { store, log, poll, events, indieAuth, now } = deps;
  return { store, log, poll, events, indieAuth, now, feedIconUrls: iconUrlsOf(deps) };
}

/** The Google Reader API's part of the server's dependencies. */
export function greaderDeps(deps: ServerDeps & { logins: Logins }): GReaderDeps {
  const { store, log, poll, now, logins } = deps;
  return { store, log, poll, now, logins, feedIconUrls: iconUrlsOf(deps) };
}

/** The Fever API's part of the server's dependencies. */
export function feverDeps(deps: ServerDeps & { logins: Logins }): FeverDeps {
  const { store, log, now, logins } = deps;
  return { store, log, now, logins };
}

function iconUrlsOf(deps: ServerDeps): FeedIconUrls {
  return (c) => feedIconUrls(deps, c);
}
