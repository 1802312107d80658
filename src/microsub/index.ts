// The Microsub endpoint (https://indieweb.org/Microsub-spec). server/app.ts mounts it at /microsub.
export { type ActionSpec, MICROSUB_ACTIONS } from './actions/index.js';
export type { MicrosubOptions } from './context.js';
export type { IndieAuthSettings, MicrosubDeps } from './deps.js';
export { microsubRoutes } from './routes.js';
