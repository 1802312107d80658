import type { Logins } from '../auth/index.js';
import type { WebDeps } from './deps.js';
import type { OpmlJobs } from './opml-jobs.js';
import type { Session, Sessions } from './session.js';

/** Hono's environment for the web UI: the signed-in session is set by the auth middleware. */
export interface WebEnv {
  Variables: { session: Session | undefined };
}

/** What the web UI's route modules share: the server's dependencies and the UI's own state. */
export interface WebContext {
  deps: WebDeps;
  sessions: Sessions;
  /** The server's logins (src/auth/logins.ts): limits and the bound on password checks. */
  logins: Logins;
  jobs: OpmlJobs;
}
