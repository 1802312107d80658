import type { Logins } from '../auth/index.js';
import type { FeedIconUrls } from '../http/index.js';
import type { Logger } from '../log.js';
import type { PollDeps } from '../poll/index.js';
import type { Store } from '../store/index.js';

/** What the Google Reader API works with; server/app.ts gives it these and nothing else. */
export interface GReaderDeps {
  store: Store;
  log: Logger;
  /** The poller, for following a feed (quickadd, subscription/edit). */
  poll: PollDeps;
  /** The clock (tests inject one). */
  now: () => Date;
  /** The server's login limits and the bound on password checks, shared with the web UI and Fever. */
  logins: Logins;
  /** Signed URLs of stored feed icons (server/feed-icons.ts). */
  feedIconUrls: FeedIconUrls;
}
