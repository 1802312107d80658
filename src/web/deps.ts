import type { Logins } from '../auth/index.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { PollDeps } from '../poll/index.js';
import type { Store } from '../store/index.js';

/** What the web UI works with; server/app.ts gives it these and nothing else. */
export interface WebDeps {
  store: Store;
  /** For the defaults it shows (the poll interval, when a feed is checked next). */
  config: Config;
  log: Logger;
  /** The poller: following, refreshing, OPML imports. */
  poll: PollDeps;
  /** The clock (tests inject one). */
  now: () => Date;
  /** The server's login limits and the bound on password checks, shared with the APIs. */
  logins: Logins;
}
