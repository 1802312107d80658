import type { PollDeps } from '../poll/index.js';
import type { Store } from '../store/index.js';

/** What the subscriptions module works with: the store, the poller (first fetches, discovery) and a clock. */
export interface SubscriptionDeps {
  store: Store;
  poll: PollDeps;
  now: () => Date;
}
