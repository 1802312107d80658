import type { Context } from 'hono';
import type { WebUser } from '../auth/index.js';
import type { UserDeps } from './deps.js';
import type { WebEnv } from './env.js';
import type { Session } from './session.js';

// What a request that passed the auth middleware (routes.ts requireSession) knows: its session, the
// user who signed in, and that user's deps. Handlers get the store only from here.

/** The session of a request that passed the auth middleware. */
export function sessionOf(c: Context<WebEnv>): Session {
  const session = c.get('session');
  if (!session) throw new Error('web: a page that needs a session was reached without one');
  return session;
}

/** The signed-in user. */
export function userOf(c: Context<WebEnv>): WebUser {
  return sessionOf(c).user;
}

/** The signed-in user's deps: their own store, and the server's clock, poller, config and log. */
export function depsOf(c: Context<WebEnv>): UserDeps {
  const deps = c.get('deps');
  if (!deps) throw new Error('web: a page that needs a session was reached without one');
  return deps;
}
