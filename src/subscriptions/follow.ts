import type { Channel, HeartbeatStatus, StoredFeed } from '../model/index.js';
import { checkFollowUrl, type FetchedFeed, pollOnce } from '../poll/index.js';
import { channelFor, existingChannel } from './channels.js';
import type { SubscriptionDeps } from './deps.js';
import { channelsFollowing } from './feed-ref.js';

/** What to follow, and where. */
export interface FollowRequest {
  /** A feed URL or a web page that links to feeds (autodiscovery picks the first, Atom and RSS first). */
  url: string;
  /** A channel uid or name (created under that name when new); the default channel when left out. */
  channel?: string;
  /** The title to show when the feed does not name itself (an OPML outline's). */
  title?: string;
  /** Follow it in this channel too when other channels follow it already (Microsub allows it). */
  inAnotherChannel?: boolean;
}

/** Why a URL was not followed. */
export type RefusalReason = 'bad-url' | 'private-address' | 'not-a-feed' | 'fetch-failed';

/** What the first fetch of a newly followed feed found. */
export interface FirstFetch {
  status?: HeartbeatStatus;
  newEntries: number;
  message?: string;
}

export type FollowResult =
  /** Followed in `channel` now and fetched at once; `resumed` when nobody followed it and it kept its history. */
  | {
      kind: 'followed';
      feed: StoredFeed;
      channel: Channel;
      resumed: boolean;
      firstFetch: FirstFetch;
      /** The web page given, when autodiscovery found the feed behind it. */
      page?: string;
    }
  /** `channel` follows it already: nothing changed. */
  | { kind: 'already'; feed: StoredFeed; channel: Channel }
  /** Other channels follow it and `inAnotherChannel` was not set: nothing changed (offer to move it). */
  | { kind: 'elsewhere'; feed: StoredFeed; channels: Channel[] }
  | { kind: 'refused'; reason: RefusalReason; message: string };

/** The one way to follow a feed, for every front end; see the README's "Following feeds" for the rules. */
export async function follow(deps: SubscriptionDeps, request: FollowRequest): Promise<FollowResult> {
  const checked = checkFollowUrl(deps.poll.config, request.url);
  if (!checked.ok) return { kind: 'refused', reason: checked.reason, message: `follow: ${checked.message}` };
  const found = await resolveFeed(deps, checked.url);
  if (found.kind === 'refused') return found;
  const { store } = deps;
  const known = found.feed;
  const following = known ? await channelsFollowing(store, known.id) : [];
  const target = await existingChannel(store, request.channel);
  const same = target && following.find((c) => c.id === target.id);
  if (known && same) return { kind: 'already', feed: known, channel: same };
  if (known && following.length > 0 && request.inAnotherChannel !== true)
    return { kind: 'elsewhere', feed: known, channels: following };
  const channel = target ?? (await channelFor(store, request.channel));
  const now = deps.now().toISOString();
  const feed = known ?? (await store.feeds.add(found.url, now));
  // the page (or redirected URL) a person followed names the feed from now on (unfollow by it, follow
  // it again)
  if (!known && (found.page || found.url !== checked.url))
    await store.feeds.update(feed.id, { originalUrl: checked.url });
  await store.channels.subscribe(channel.id, feed.id, now);
  const resumed = feed.unfollowedAt !== undefined;
  if (!known && request.title) await store.feeds.update(feed.id, { title: request.title });
  const firstFetch = await fetchFirst(deps, feed, found.fetched);
  const followed = (await store.feeds.get(feed.id)) ?? feed;
  const page = found.page ? { page: checked.url } : {};
  return { kind: 'followed', feed: followed, channel, resumed, firstFetch, ...page };
}

type Resolved =
  | {
      kind: 'feed';
      url: string;
      feed: StoredFeed | undefined;
      page?: boolean;
      /** The answer of the feed's URL that autodiscovery read, for the first poll to take. */
      fetched?: FetchedFeed;
    }
  | Extract<FollowResult, { kind: 'refused' }>;

/** The stored feed a URL names, or the feed URL autodiscovery finds behind it. */
async function resolveFeed(deps: SubscriptionDeps, url: string): Promise<Resolved> {
  const known = await deps.store.feeds.findByUrl(url);
  if (known) return { kind: 'feed', url: known.url, feed: known };
  // loaded here: autodiscovery brings the parser, which many callers never need
  const { discover } = await import('../poll/index.js');
  const found = await discover(deps.poll, url);
  if (found.kind === 'error') return { kind: 'refused', reason: found.reason, message: found.message };
  const feedUrl = found.kind === 'feed' ? found.url : found.feeds[0]?.url;
  if (feedUrl === undefined)
    return { kind: 'refused', reason: 'not-a-feed', message: `follow: ${url} links to no feed` };
  const checked = checkFollowUrl(deps.poll.config, feedUrl);
  if (!checked.ok) return { kind: 'refused', reason: checked.reason, message: `follow: ${checked.message}` };
  const feed = await deps.store.feeds.findByUrl(checked.url);
  let fetched: FetchedFeed | undefined = found.kind === 'feed' ? found.fetched : undefined;
  if (found.kind === 'page' && feed === undefined) {
    // the feed a page links to is fetched before it is followed, as a URL given directly is: a link to
    // a feed that answers 404 is refused with the reason, not followed broken
    const linked = await discover(deps.poll, checked.url);
    if (linked.kind === 'error')
      return {
        kind: 'refused',
        reason: linked.reason,
        message: `${linked.message} (the feed ${url} links to)`,
      };
    if (linked.kind === 'feed') fetched = linked.fetched;
  }
  return {
    kind: 'feed',
    url: checked.url,
    feed,
    page: found.kind === 'page',
    ...(fetched ? { fetched } : {}),
  };
}

/**
 * A feed just followed is fetched at once, so that its entries are there when its channel opens; a feed
 * fetched before (followed elsewhere, or resumed) is left to its schedule.
 */
async function fetchFirst(
  deps: SubscriptionDeps,
  feed: StoredFeed,
  fetched: FetchedFeed | undefined,
): Promise<FirstFetch> {
  if (feed.lastCheckedAt !== undefined) return withMessage({ newEntries: 0 }, feed);
  // the answer autodiscovery read a moment ago is the first poll's: one request to the publisher
  const given = fetched ? { fetched: new Map([[feed.id, fetched]]) } : {};
  const summary = await pollOnce(deps.poll, { feedIds: [feed.id], force: true, ...given });
  const polled = await deps.store.feeds.get(feed.id);
  return withMessage({ newEntries: summary.newEntries }, polled ?? feed);
}

function withMessage(fetch: FirstFetch, feed: StoredFeed): FirstFetch {
  return {
    ...fetch,
    ...(feed.status ? { status: feed.status } : {}),
    ...(feed.message && feed.status !== 'ok' ? { message: feed.message } : {}),
  };
}
