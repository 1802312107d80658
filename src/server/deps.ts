import type { Logins } from '../auth/index.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { IndieAuthSettings } from '../microsub/index.js';
import type { PollDeps, PollEvents } from '../poll/index.js';
import type { Store } from '../store/index.js';

/**
 * What the HTTP server works with, all of it: server/app.ts gives each front end (web UI, Microsub
 * endpoint, the sync APIs) only the part it uses (its WebDeps, MicrosubDeps, GReaderDeps, FeverDeps).
 */
export interface ServerDeps {
  store: Store;
  config: Config;
  log: Logger;
  poll: PollDeps;
  events: PollEvents;
  indieAuth: IndieAuthSettings;
  /** The clock (tests inject one). */
  now: () => Date;
  /** The logins' limits and checks, shared by every front end (createApp makes them; tests inject small ones). */
  logins?: Logins;
}
