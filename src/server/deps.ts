import type { Logins } from '../auth/logins.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { PollDeps } from '../poll/deps.js';
import type { PollEvents } from '../poll/events.js';
import type { Store } from '../store/index.js';

/** IndieAuth settings for verifying tokens a token endpoint issued (`--token-endpoint`, `--me`). */
export interface IndieAuthSettings {
  tokenEndpoint?: string;
  me?: string;
}

/** What the HTTP server (web UI, Microsub endpoint and the sync APIs) works with; shared by them, owned by none. */
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
