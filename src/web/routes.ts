import { Hono } from 'hono';
import type { ServerDeps } from './deps.js';

/** The web UI (placeholder until the web UI issue lands). */
export function webRoutes(_deps: ServerDeps): Hono {
  const app = new Hono();
  app.get('/', (c) => c.text('tidings is running. The web UI is not built yet; the Microsub endpoint is at /microsub.\n'));
  return app;
}
