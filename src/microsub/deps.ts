import type { FeedIconUrls } from '../http/index.js';
import type { Logger } from '../log.js';
import type { PollDeps, PollEvents } from '../poll/index.js';
import type { Store } from '../store/index.js';

/** IndieAuth settings for verifying tokens a token endpoint issued (`--token-endpoint`, `--me`). */
export interface IndieAuthSettings {
  tokenEndpoint?: string;
  me?: string;
}

/** What the Microsub endpoint works with; server/app.ts gives it these and nothing else. */
export interface MicrosubDeps {
  store: Store;
  log: Logger;
  /** The poller: following, previews, refreshes. */
  poll: PollDeps;
  /** New entries and channel changes, for the event streams. */
  events: PollEvents;
  indieAuth: IndieAuthSettings;
  /** The clock (tests inject one). */
  now: () => Date;
  /** Signed URLs of stored feed icons (server/feed-icons.ts). */
  feedIconUrls: FeedIconUrls;
}
