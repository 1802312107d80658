// The Fever API for the apps. server/app.ts mounts it at /api/fever and /api/fever.php.
export type { FeverDeps } from './deps.js';
export { FEVER_MARKS } from './mark.js';
export { FEVER_ARGUMENTS, feverRoutes } from './routes.js';
