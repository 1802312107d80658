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

/** The server's dependencies without a store: each request works with its user's (UserDeps). */
export type SharedDeps = Omit<WebDeps, 'store'>;

/**
 * What a signed-in request's handlers work with: the server's dependencies with the signed-in user's
 * own store (store.forUser), which reads and changes only that user's channels, reading state, tokens
 * and settings. The use cases (src/reading, src/subscriptions) take it as their deps.
 */
export interface UserDeps extends SharedDeps {
  store: Store;
}
