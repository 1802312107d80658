import { Hono } from 'hono';
import type { ServerDeps } from '../web/deps.js';

/** The Microsub endpoint (placeholder until the Microsub issue lands). */
export function microsubRoutes(_deps: ServerDeps): Hono {
  const app = new Hono();
  app.all('/', (c) => c.json({ error: 'not_implemented', error_description: 'microsub: not implemented yet' }, 501));
  return app;
}
