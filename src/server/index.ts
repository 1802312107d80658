// The HTTP application, assembled in one place (app.ts): the front ends, each given only what it uses,
// and the signed feed icons for the apps.
export { createApp, feverDeps, greaderDeps, microsubDeps, webDeps } from './app.js';
export type { ServerDeps } from './deps.js';
