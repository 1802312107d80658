import type { Channel, StoredFeed } from '../../model/stored.js';
import { healthOf } from '../../model/stored.js';
import { discover } from '../../poll/discover.js';
import { pollOnce } from '../../poll/poller.js';
import { isSilent } from '../../poll/scheduler.js';
import { StoreError } from '../../store/store-error.js';
import { requireChannel } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { badRequest } from '../errors.js';

/** A followed feed as Microsub lists it (jf2 h-feed), with tidings' health of it. */
export interface FeedItem {
  type: 'feed';
  url: string;
  name?: string;
  photo?: string;
  description?: string;
  _source: string;
  _health: { status: string; message?: string; last_checked?: string; last_success?: string };
}

/**
 * `action=follow` (Microsub spec, "Following"): GET lists the feeds a channel follows, each with its
 * health, so a feed that stopped updating shows; POST follows a URL (a page is resolved to its feed)
 * and fetches it at once, so its entries are in the channel when the answer arrives.
 */
export async function followAction(ctx: ActionContext): Promise<object> {
  const channel = await requireChannel(ctx);
  if (ctx.httpMethod === 'GET') {
    const subscriptions = await ctx.deps.store.listSubscriptions(channel.id);
    return { items: subscriptions.map((s) => feedItem(s.feed, ctx.deps.now())) };
  }
  const url = requireHttpUrl(ctx.params.one('url'));
  const feed = await follow(ctx, channel, url);
  ctx.signals.changed(channel.id);
  return feedItem(feed, ctx.deps.now());
}

/** The feed as listed: name, photo, `_source` (the feed id timelines filter on) and `_health`. */
export function feedItem(feed: StoredFeed, now: Date): FeedItem {
  const silent = isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now);
  const health: FeedItem['_health'] = { status: healthOf(feed, silent) };
  if (feed.message) health.message = feed.message;
  if (feed.lastCheckedAt) health.last_checked = feed.lastCheckedAt;
  if (feed.lastSuccessAt) health.last_success = feed.lastSuccessAt;
  const item: FeedItem = { type: 'feed', url: feed.url, _source: String(feed.id), _health: health };
  if (feed.title) item.name = feed.title;
  if (feed.iconUrl) item.photo = feed.iconUrl;
  if (feed.description) item.description = feed.description;
  return item;
}

/** A URL a client asks to follow or preview: absolute http(s), else a 400. */
export function requireHttpUrl(value: string | undefined): string {
  if (value === undefined) throw badRequest('the url parameter is missing');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`"${value.slice(0, 200)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest('only http and https URLs can be followed');
  return url.toString();
}

async function follow(ctx: ActionContext, channel: Channel, url: string): Promise<StoredFeed> {
  const { store } = ctx.deps;
  const known = await store.findFeedByUrl(url);
  const feedUrl = known ? known.url : await resolveFeedUrl(ctx, url);
  const now = ctx.deps.now().toISOString();
  const feed = known ?? (await store.addFeed(feedUrl, now));
  await store.subscribe(channel.id, feed.id, now).catch((err: unknown) => {
    // following a feed the channel already follows is no error
    if (!(err instanceof StoreError && err.kind === 'conflict')) throw err;
  });
  if (feed.lastCheckedAt === undefined) await pollOnce(ctx.deps.poll, { feedIds: [feed.id], force: true });
  return (await store.getFeed(feed.id)) ?? feed;
}

/** The feed URL behind what a person gave: itself when it is a feed, else the first feed a page links to. */
async function resolveFeedUrl(ctx: ActionContext, url: string): Promise<string> {
  const found = await discover(ctx.deps.poll, url);
  if (found.kind === 'error') throw badRequest(`cannot follow ${url}: ${found.message}`);
  if (found.kind === 'feed') return found.url;
  const first = found.feeds[0];
  if (!first) throw badRequest(`cannot follow ${url}: it links to no feed`);
  return first.url;
}
