import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { Logins } from '../auth/logins.js';
import { feverRoutes } from '../fever/routes.js';
import { greaderRoutes } from '../greader/routes.js';
import { microsubRoutes } from '../microsub/routes.js';
import { webRoutes } from '../web/routes.js';
import { logApiFailures } from './api-failures.js';
import type { ServerDeps } from './deps.js';
import { FEED_ICONS_PATH, feedIconRoutes } from './feed-icons.js';

/** The whole HTTP application: the Microsub endpoint at /microsub and the web UI at /. */
export function createApp(serverDeps: ServerDeps): Hono {
  // one set of login limits and one bound on password checks for every front end
  const deps = { ...serverDeps, logins: serverDeps.logins ?? new Logins() };
  const app = new Hono();
  // every 4xx/5xx of the APIs, with its path, status and reason (the web UI shows its own pages)
  app.use('/microsub/*', logApiFailures(deps.log, 'microsub'));
  for (const path of ['/api/fever', '/api/fever.php'])
    app.use(`${path}/*`, logApiFailures(deps.log, 'fever'));
  for (const path of ['/api/greader', '/api/greader.php'])
    app.use(`${path}/*`, logApiFailures(deps.log, 'greader'));
  app.route('/microsub', microsubRoutes(deps));
  // the sync APIs (issue 15), before the web UI so that its login redirect never answers them
  for (const path of ['/api/fever', '/api/fever.php']) app.route(path, feverRoutes(deps));
  for (const path of ['/api/greader', '/api/greader.php']) app.route(path, greaderRoutes(deps));
  // stored feed icons at signed URLs, for the apps, which have no session (feed-icons.ts)
  app.route(FEED_ICONS_PATH, feedIconRoutes(deps));
  app.route('/', webRoutes(deps));
  app.onError((err, c) => {
    // Hono's own refusals (csrf(), body limits) carry their response: send it, not a 500
    if (err instanceof HTTPException) return err.getResponse();
    deps.log.error({ err, path: c.req.path }, 'server: request failed');
    return c.json(
      { error: 'internal_error', error_description: 'server: something went wrong on our side' },
      500,
    );
  });
  return app;
}
