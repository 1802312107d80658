import type { Logins } from '../auth/index.js';
import type { Store } from '../store/index.js';
import type { SharedDeps, UserDeps } from './deps.js';
import type { OpmlJobs } from './opml-jobs.js';
import type { Session, Sessions } from './session.js';

/** Hono's environment for the web UI: the auth middleware sets the session and the user's deps. */
export interface WebEnv {
  Variables: { session: Session | undefined; deps: UserDeps | undefined };
}

/** What the web UI's route modules share: the server's dependencies and the UI's own state. */
export interface WebContext {
  /** No store here: a handler takes its user's from the request (depsOf, signed-in.ts). */
  deps: SharedDeps;
  /**
   * The whole instance's store (it acts as user 1): only for what is not one user's, namely signing in,
   * sessions, the admins' pages and the admins' view of every feed. Never for a user's own data.
   */
  instance: Store;
  sessions: Sessions;
  /** The server's logins (src/auth/logins.ts): limits and the bound on password checks. */
  logins: Logins;
  jobs: OpmlJobs;
}
