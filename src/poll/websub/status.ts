import type { StoredFeed } from '../../model/index.js';
import type { PushState, PushSubscription } from '../../store/index.js';

/** A feed's push state as `status --json` gives it (issue 26: these four keys, kept exactly). */
export interface PushStatusJson {
  state: PushState;
  hub: string | null;
  topic: string | null;
  expiresAt: string | null;
}

/**
 * The `push` object of a feed in `status --json`: 'none' (with the hub it announces, if any) without a
 * subscription; an active one whose lease has run out is 'failed', as describePush says it.
 */
export function pushStatusJson(
  feed: StoredFeed,
  sub: PushSubscription | undefined,
  now: Date,
): PushStatusJson {
  if (sub === undefined)
    return {
      state: 'none',
      hub: feed.hubUrl ?? null,
      topic: feed.hubUrl ? (feed.selfUrl ?? feed.url) : null,
      expiresAt: null,
    };
  const state = sub.state === 'active' && leaseRanOut(sub, now) ? 'failed' : sub.state;
  return { state, hub: sub.hub, topic: sub.topic, expiresAt: sub.expiresAt ?? null };
}

function leaseRanOut(sub: PushSubscription, now: Date): boolean {
  return sub.expiresAt !== undefined && sub.expiresAt <= now.toISOString();
}

/** The push state in words, for the feed's health page and `status FEED`. */
export function describePush(sub: PushSubscription | undefined, pushOn: boolean, now: Date): string {
  if (sub === undefined)
    return pushOn ? 'none: the feed names no WebSub hub' : 'none: push is off (TIDINGS_BASE_URL is not set)';
  const why = sub.message ? `: ${sub.message.replace(/^websub: /, '')}` : '';
  switch (sub.state) {
    case 'pending':
      return `pending: asked ${sub.hub} on ${day(sub.requestedAt)}, waiting for its verification`;
    case 'denied':
      return `denied${why}; the feed is polled as usual`;
    case 'failed':
      return `failed${why}; the feed is polled as usual`;
    case 'active': {
      if (leaseRanOut(sub, now))
        return `failed: the lease ran out on ${day(sub.expiresAt)}; the feed is polled as usual`;
      const until = `active until ${day(sub.expiresAt)} through ${sub.hub}`;
      if (sub.unreliableAt !== undefined) return `${until}, but unreliable${why}`;
      return `${until}${sub.lastDeliveryAt ? `, last push ${day(sub.lastDeliveryAt)}` : ''}`;
    }
  }
}

function day(iso: string | undefined): string {
  return iso === undefined ? 'an unknown time' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
