import type { Channel, StoredFeed } from '../../model/index.js';
import {
  API_PAGE_BYTES,
  changeEntries,
  countWithinBudget,
  entriesOfChannel,
  markInChannel,
  markReadUpTo,
  removeFromChannel,
} from '../../reading/index.js';
import type { TimelineQuery } from '../../store/index.js';
import { entryIds, requireChannel } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { withFeedIcon } from '../feed-icon.js';
import { feedItem } from './follow.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/**
 * `action=timeline` (Microsub spec, "Timelines"): GET pages through a channel, newest first;
 * POST marks entries read or unread, saves or unsaves them (a tidings extension: `method=save`,
 * `method=unsave`, shared with the Google Reader and Fever APIs), or removes them from the channel.
 */
export async function timelineAction(ctx: ActionContext): Promise<object | Response> {
  const channel = await requireChannel(ctx);
  if (ctx.httpMethod === 'GET') return readTimeline(ctx, channel);
  const method = ctx.params.one('method');
  if (method === 'mark_read') await markRead(ctx, channel);
  else if (method === 'mark_unread') await markUnread(ctx, channel);
  else if (method === 'remove') await removeEntries(ctx, channel);
  else if (method === 'save' || method === 'unsave') {
    const ids = await existingEntries(ctx, channel, requireEntries(ctx));
    await changeEntries(ctx.deps.store, ids, method, ctx.deps.now());
  } else throw badRequest(method ? `timeline has no method ${method}` : 'a timeline POST needs a method');
  // the store tells open event streams of what changed (ChannelSignals)
  return {};
}

/**
 * One page: `before` for newer entries, `after` for older ones; `limit`, `source` (a feed id, the
 * `_source` of items) and `is_read=false` as Aperture has them. A cursor the store cannot read is a 400.
 * A page holds at most a byte budget of entries (src/reading/page-budget.ts): past it, the page is
 * asked again with the limit that fits, so its cursors page on to the rest.
 */
async function readTimeline(ctx: ActionContext, channel: Channel): Promise<Response> {
  const query: TimelineQuery = { channelId: channel.id, limit: readLimit(ctx.params.one('limit')) };
  const before = ctx.params.one('before');
  const after = ctx.params.one('after');
  if (before !== undefined && after !== undefined) throw badRequest('give before or after, not both');
  if (before !== undefined) query.before = before;
  if (after !== undefined) query.after = after;
  const source = ctx.params.one('source');
  const sourced = source === undefined ? undefined : await sourceFeed(ctx, channel, source);
  if (sourced !== undefined) query.feedId = sourced.id;
  if (ctx.params.one('is_read') === 'false') query.unreadOnly = true;
  const { store } = ctx.deps;
  let page = await store.reading.timelineRefs(query);
  const sizes = await ctx.jf2.sizes(page.refs, (ids) => store.entries.sizes(ids));
  // a `before` page is the entries just newer than the cursor: a smaller one keeps the oldest of them
  const fitting = countWithinBudget(sizes, API_PAGE_BYTES, before !== undefined);
  if (fitting < page.refs.length) page = await store.reading.timelineRefs({ ...query, limit: fitting });
  const iconUrl = await ctx.deps.feedIconUrls(ctx.hono);
  const items = await ctx.jf2.items(
    page.refs.map((ref) => withFeedIcon(ref, iconUrl)),
    async (ids) =>
      (await store.reading.entriesById(channel.id, ids)).map((entry) => withFeedIcon(entry, iconUrl)),
  );
  const paging: { before?: string; after?: string } = {};
  if (page.before !== undefined) paging.before = page.before;
  if (page.after !== undefined) paging.after = page.after;
  // a page of one source says which (Aperture does; Monocle titles its one-feed view with source.name)
  const about =
    sourced === undefined
      ? ''
      : `,"source":${JSON.stringify({ _id: String(sourced.id), ...feedItem(sourced, ctx.deps.now(), iconUrl) })}`;
  // the items are JSON already (jf2-cache.ts): the answer is written around them
  const body = `{"items":[${items.join(',')}],"paging":${JSON.stringify(paging)}${about}}`;
  return ctx.hono.body(body, 200, { 'Content-Type': 'application/json' });
}

/** The page size: 20 unless asked, at most 100; 400 for what is not a positive integer of 1-6 digits. */
export function readLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^\d{1,6}$/.test(value) || Number(value) === 0)
    throw badRequest(
      `limit must be a positive integer of at most 6 digits (a page holds up to ${MAX_LIMIT})`,
    );
  return Math.min(Number(value), MAX_LIMIT);
}

/**
 * A `source`: the feed id tidings gives as `_source`, or the feed's URL, of a feed this channel follows;
 * a feed the channel does not follow (one the user follows elsewhere, one only others follow) is not a
 * source of it: not found, as one that does not exist.
 */
async function sourceFeed(ctx: ActionContext, channel: Channel, source: string): Promise<StoredFeed> {
  const { store } = ctx.deps;
  const feed = /^\d{1,15}$/.test(source)
    ? await store.feeds.get(Number(source))
    : await store.feeds.findByUrl(source);
  const followed =
    feed !== undefined &&
    (await store.channels.listSubscriptionRefs({ channelId: channel.id, feedIds: [feed.id] })).length > 0;
  if (!feed || !followed) throw notFound(`there is no source ${source.slice(0, 200)} in this channel`);
  return feed;
}

/**
 * `entry` / `entry[]` marks those entries read; `last_read_entry` marks that entry and every older one
 * of the channel read (Monocle's "mark all read" sends it).
 */
async function markRead(ctx: ActionContext, channel: Channel): Promise<void> {
  const last = ctx.params.one('last_read_entry');
  if (last !== undefined) {
    const [id] = await existingEntries(ctx, channel, entryIds([last]));
    await markReadUpTo(ctx.deps, channel, id as number);
    return;
  }
  const ids = await existingEntries(ctx, channel, requireEntries(ctx));
  await markInChannel(ctx.deps, channel, ids, true);
}

async function markUnread(ctx: ActionContext, channel: Channel): Promise<void> {
  if (ctx.params.one('last_read_entry') !== undefined)
    throw badRequest('last_read_entry applies to mark_read only (Microsub spec)');
  const ids = await existingEntries(ctx, channel, requireEntries(ctx));
  await markInChannel(ctx.deps, channel, ids, false);
}

async function removeEntries(ctx: ActionContext, channel: Channel): Promise<void> {
  const ids = await existingEntries(ctx, channel, requireEntries(ctx));
  await removeFromChannel(ctx.deps, channel, ids);
}

function requireEntries(ctx: ActionContext): number[] {
  const ids = entryIds(ctx.params.all('entry'));
  if (ids.length === 0) throw badRequest('entry or entry[] is missing');
  return ids;
}

/**
 * The ids among these that are entries of the channel (the reading module's rule: of a feed it follows);
 * stale ids among known ones are ignored (a client may hold entries removed meanwhile); when none is
 * known the request is a 404.
 */
async function existingEntries(ctx: ActionContext, channel: Channel, ids: number[]): Promise<number[]> {
  const known = await entriesOfChannel(ctx.deps, channel, ids);
  if (known.length === 0) throw notFound(`no entry ${ids.slice(0, 5).join(', ')} in channel ${channel.uid}`);
  return known;
}
