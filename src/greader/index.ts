// The Google Reader API for the apps. server/app.ts mounts it at /api/greader and /api/greader.php.
export type { GReaderDeps } from './deps.js';
export { GREADER_PATHS, greaderRoutes } from './routes.js';
