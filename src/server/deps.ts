import type { Logins } from '../auth/index.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/index.js';
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
  /**
   * The process's metrics, served at /metrics when config.metrics is true. The poller's are counted only
   * when its hooks include `metrics.pollHooks()` (the CLI's openApp does that); without one createApp
   * makes its own, which counts requests and feeds only.
   */
  metrics?: Metrics;
  /** The logins' limits and checks, shared by every front end (createApp makes them; tests inject small ones). */
  logins?: Logins;
}
