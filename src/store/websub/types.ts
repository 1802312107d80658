/** What a WebSub subscription is in: no row is 'none' (PUSH_STATES, in `status --json`). */
export type PushState = 'none' | 'pending' | 'active' | 'denied' | 'failed';

export const PUSH_STATES: readonly PushState[] = ['none', 'pending', 'active', 'denied', 'failed'];

/** The WebSub subscription of one feed, as stored (issue 26). */
export interface PushSubscription {
  feedId: number;
  /** The last part of the callback URL, `${TIDINGS_BASE_URL}/websub/<token>`. */
  token: string;
  /** The hub.secret deliveries are signed with. */
  secret: string;
  hub: string;
  topic: string;
  state: Exclude<PushState, 'none'>;
  /** The request waiting for the hub's verification of intent. */
  pendingMode?: 'subscribe' | 'unsubscribe';
  requestedAt: string;
  /** What the hub granted (or, before it verified, what was asked). */
  leaseSeconds?: number;
  verifiedAt?: string;
  expiresAt?: string;
  /** When the keeper looks again: renewal, a retry, the end of the wait for a verification. */
  nextActionAt?: string;
  /** Why it failed or was denied. */
  message?: string;
  /** A poll found an entry the hub never pushed: the feed is polled as if it had no hub. */
  unreliableAt?: string;
  lastDeliveryAt?: string;
}

/** A subscription that needs the keeper's attention, with whether anyone still follows its feed. */
export interface DuePushSubscription extends PushSubscription {
  unfollowed: boolean;
}

/** The fields of a subscription that change after it was asked for. */
export type PushSubscriptionPatch = {
  [K in Exclude<keyof PushSubscription, 'feedId'>]?: PushSubscription[K] | null;
};
