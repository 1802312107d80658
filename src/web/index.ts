// The web UI: reader, admin and feed health behind the owner's login. server/app.ts mounts it at /.
export type { WebDeps } from './deps.js';
export { webRoutes } from './routes.js';
