import type { Logins } from '../auth/index.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';

/** What the Fever API works with; server/app.ts gives it these and nothing else. */
export interface FeverDeps {
  store: Store;
  log: Logger;
  /** The clock (tests inject one). */
  now: () => Date;
  /** The server's login limits and the bound on password checks, shared with the web UI and Google Reader. */
  logins: Logins;
}
