import type { Channel, StoredFeed } from '../model/index.js';
import { channelFor, findChannel } from './channels.js';
import type { SubscriptionDeps } from './deps.js';
import { channelsFollowing } from './feed-ref.js';

/** Which feed to move, from where (every channel that follows it when left out) to where. */
export interface MoveRequest {
  feedId: number;
  /** A channel uid or name. */
  from?: string;
  /** A channel uid or name; created under that name when new. */
  to: string;
}

export type MoveResult =
  | { kind: 'moved'; feed: StoredFeed; from: Channel[]; to: Channel }
  | { kind: 'not-found'; message: string };

/** Moves a feed's subscription (with its read state) to another channel. */
export async function move(deps: SubscriptionDeps, request: MoveRequest): Promise<MoveResult> {
  const { store } = deps;
  const feed = await store.feeds.get(request.feedId);
  if (!feed) return { kind: 'not-found', message: `move: there is no feed ${request.feedId}` };
  const following = await channelsFollowing(store, feed.id);
  let from = following;
  if (request.from !== undefined) {
    const named = await findChannel(store, request.from);
    from = following.filter((c) => c.id === named?.id);
  }
  if (from.length === 0) {
    const who = request.from === undefined ? 'no channel follows' : `${request.from} does not follow`;
    return { kind: 'not-found', message: `move: ${who} feed ${feed.id}` };
  }
  const to = await channelFor(store, request.to);
  const now = deps.now().toISOString();
  for (const channel of from) await store.channels.moveSubscription(feed.id, channel.id, to.id, now);
  return { kind: 'moved', feed, from: from.filter((c) => c.id !== to.id), to };
}
