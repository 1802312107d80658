import type { StoredFeed } from '../../model/index.js';
import { type Discovery, discover } from '../../poll/index.js';
import { API_PAGE_BYTES } from '../../reading/index.js';
import { channelOrGlobal } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { badRequest } from '../errors.js';
import { withFeedIcon } from '../feed-icon.js';
import { timelineItem } from '../jf2.js';
import { safeLink, safeLinks } from '../links.js';
import { readLimit } from './timeline.js';

interface FeedResult {
  type: 'feed';
  url: string;
  name?: string;
  photo?: string;
  description?: string;
}

const MAX_KNOWN_RESULTS = 20;

/**
 * `action=search` (Microsub spec, "Search"). Without a channel it searches for feeds to follow: a URL
 * or a bare domain is fetched and its feeds discovered, and feeds already followed that match the
 * words are listed too. With a channel (or `global`) it searches entries, paged like a timeline.
 */
export async function searchAction(ctx: ActionContext): Promise<object> {
  const query = ctx.params.one('query');
  if (query === undefined) throw badRequest('the query parameter is missing');
  if (ctx.params.one('channel') === undefined) return { results: await findFeeds(ctx, query) };
  const channel = await channelOrGlobal(ctx);
  // results page on with `after` only (newest first, as found): a `before` would silently be the first page
  if (ctx.params.one('before') !== undefined)
    throw badRequest('search results page on with after only (they have no newer pages)');
  const after = ctx.params.one('after');
  const page = await ctx.deps.store.reading.search({
    query,
    limit: readLimit(ctx.params.one('limit')),
    ...(channel ? { channelId: channel.id } : {}),
    ...(after !== undefined ? { after } : {}),
    // a page of a few very large entries stops early, with a cursor on (issue 22)
    maxBytes: API_PAGE_BYTES,
  });
  const paging: { after?: string } = page.after !== undefined ? { after: page.after } : {};
  const iconUrl = await ctx.deps.feedIconUrls(ctx.hono);
  return { items: page.entries.map((entry) => timelineItem(withFeedIcon(entry, iconUrl))), paging };
}

async function findFeeds(ctx: ActionContext, query: string): Promise<FeedResult[]> {
  const known = await knownFeeds(ctx, query);
  const candidates = urlCandidates(query);
  for (const url of candidates) {
    const found = await discover(ctx.deps.poll, url);
    if (found.kind !== 'error') return dedupe([...resultsOf(found), ...known]);
  }
  return known;
}

/** What to fetch for a query: a URL as given; a bare domain as https, then http; words: nothing. */
export function urlCandidates(query: string): string[] {
  if (/^https?:\/\//i.test(query)) return [query];
  if (/\s/.test(query) || !/^[^/\s]+\.[a-z]{2,}(?::\d+)?(?:\/\S*)?$/i.test(query)) return [];
  return [`https://${query}`, `http://${query}`];
}

/** What was found at a URL, its URLs by the URL policy of every output (microsub/links.ts). */
function resultsOf(found: Exclude<Discovery, { kind: 'error' }>): FeedResult[] {
  if (found.kind === 'page') {
    const feeds = found.feeds.filter((f) => safeLink(f.url) !== undefined);
    return feeds.map((f) => ({ type: 'feed', url: f.url, ...(f.title ? { name: f.title } : {}) }));
  }
  const feed = found.result.feed;
  const result: FeedResult = { type: 'feed', url: found.url };
  if (feed.title) result.name = feed.title;
  const [photo] = safeLinks(
    [feed.image?.href, feed.icon, feed.authorDetail?.photo].filter((url) => url !== undefined),
  );
  if (photo) result.photo = photo;
  if (feed.subtitle) result.description = feed.subtitle;
  return [result];
}

/**
 * Feeds the user follows whose URL or title contains the query (the spec lets servers offer feeds they
 * have); never the feeds only other users follow, which would tell what they read.
 */
async function knownFeeds(ctx: ActionContext, query: string): Promise<FeedResult[]> {
  const words = query.toLowerCase();
  const matches = (feed: StoredFeed) =>
    [feed.url, feed.title, feed.siteUrl].some((field) => field?.toLowerCase().includes(words));
  const followed = new Map(
    (await ctx.deps.store.channels.listSubscriptions()).map((s) => [s.feed.id, s.feed] as const),
  );
  const feeds = [...followed.values()]
    .sort((a, b) => a.id - b.id)
    .filter(matches)
    .slice(0, MAX_KNOWN_RESULTS);
  const iconUrl = await ctx.deps.feedIconUrls(ctx.hono);
  return feeds.map((feed) => ({
    type: 'feed',
    url: feed.url,
    ...(feed.title ? { name: feed.title } : {}),
    ...(iconUrl(feed.id) ? { photo: iconUrl(feed.id) as string } : {}),
    ...(feed.description ? { description: feed.description } : {}),
  }));
}

function dedupe(results: FeedResult[]): FeedResult[] {
  const seen = new Set<string>();
  return results.filter((r) => !seen.has(r.url) && seen.add(r.url));
}
