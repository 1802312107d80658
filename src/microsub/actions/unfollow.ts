import type { StoredFeed } from '../../model/stored.js';
import { requireChannel } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';

/**
 * `action=unfollow` (Microsub spec, "Unfollowing"): stops following a URL in a channel. The URL may be
 * the feed's, the one first followed, or its site's (what a client remembers). `remove_entries=true`
 * also drops the feed's entries from the channel's timeline, which readers of other servers asked for.
 */
export async function unfollowAction(ctx: ActionContext): Promise<object> {
  const channel = await requireChannel(ctx);
  const url = ctx.params.one('url');
  if (url === undefined) throw badRequest('the url parameter is missing');
  const subscriptions = await ctx.deps.store.listSubscriptions(channel.id);
  const match = subscriptions.find((s) => namesFeed(s.feed, url));
  if (!match) throw notFound(`channel ${channel.uid} does not follow ${url.slice(0, 200)}`);
  const now = ctx.deps.now().toISOString();
  if (isTrue(ctx.params.one('remove_entries')))
    await ctx.deps.store.removeFeedEntries(channel.id, match.feedId, now);
  await ctx.deps.store.unsubscribe(channel.id, match.feedId);
  ctx.signals.changed(channel.id);
  return {};
}

function namesFeed(feed: StoredFeed, url: string): boolean {
  const wanted = comparable(url);
  return [feed.url, feed.originalUrl, feed.siteUrl].some((u) => u !== undefined && comparable(u) === wanted);
}

// http/https, a trailing slash and host case do not make another feed in a client's memory
function comparable(url: string): string {
  return url
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .replace(/^[^/]+/, (host) => host.toLowerCase());
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}
