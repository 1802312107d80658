import type { FeedIconUrl } from '../../http/index.js';
import type { StoredFeed } from '../../model/index.js';
import { healthOf } from '../../model/index.js';
import { checkFollowUrl, isSilent } from '../../poll/index.js';
import { follow } from '../../subscriptions/index.js';
import { requireChannel } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { badRequest } from '../errors.js';
import { requireUrlParam } from '../links.js';

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
 * health, so a feed that stopped updating shows; POST follows a URL through the subscriptions module (a
 * page is resolved to its feed, a new feed is fetched at once). A feed other channels follow is followed
 * here too: the spec lets a client put one feed in several channels. Following it again changes nothing.
 */
export async function followAction(ctx: ActionContext): Promise<object> {
  const channel = await requireChannel(ctx);
  const iconUrl = await ctx.deps.feedIconUrls(ctx.hono);
  if (ctx.httpMethod === 'GET') {
    const subscriptions = await ctx.deps.store.channels.listSubscriptions(channel.id);
    return { items: subscriptions.map((s) => feedItem(s.feed, ctx.deps.now(), iconUrl)) };
  }
  const url = requireUrlParam(ctx.params.one('url'));
  const result = await follow(ctx.deps, { url, channel: channel.uid, inAnotherChannel: true });
  if (result.kind === 'refused') throw badRequest(result.message);
  return feedItem(result.feed, ctx.deps.now(), iconUrl);
}

/**
 * The feed as listed: name, photo (its stored icon, from tidings' origin), `_source` (the feed id
 * timelines filter on) and `_health`.
 */
export function feedItem(feed: StoredFeed, now: Date, iconUrl: FeedIconUrl): FeedItem {
  const silent = isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now);
  const health: FeedItem['_health'] = { status: healthOf(feed, silent) };
  if (feed.message) health.message = feed.message;
  if (feed.lastCheckedAt) health.last_checked = feed.lastCheckedAt;
  if (feed.lastSuccessAt) health.last_success = feed.lastSuccessAt;
  const item: FeedItem = { type: 'feed', url: feed.url, _source: String(feed.id), _health: health };
  if (feed.title) item.name = feed.title;
  const photo = iconUrl(feed.id);
  if (photo) item.photo = photo;
  if (feed.description) item.description = feed.description;
  return item;
}

/** A URL a client asks to preview: checked as for following (http/https, no private address), else a 400. */
export function requireHttpUrl(ctx: ActionContext, value: string | undefined): string {
  const checked = checkFollowUrl(ctx.deps.poll.config, requireUrlParam(value));
  if (!checked.ok) throw badRequest(checked.message);
  return checked.url;
}
