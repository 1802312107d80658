import type { Logger } from '../log.js';
import type { PollDeps } from '../poll/index.js';
import type { Store } from '../store/index.js';

/** What the reading module works with: the store, the poller (refresh, preview), a clock and a log. */
export interface ReadingDeps {
  store: Store;
  poll: PollDeps;
  now: () => Date;
  log: Logger;
}
