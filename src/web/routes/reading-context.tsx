import type { Context } from 'hono';
import type { Channel } from '../../model/index.js';
import { channelsActingFor } from '../../reading/index.js';
import type { SubscriptionRef, TimelineEntry } from '../../store/index.js';
import { ClientError } from '../client-error.js';
import type { WebContext, WebEnv } from '../env.js';
import { idOf } from '../forms.js';
import { depsOf, sessionOf } from '../render.js';
import type { EntryContext, LayoutProps, ViewScope } from '../views/index.js';
import {
  ALL_COUNT_KEY,
  channelCountKey,
  feedCountKey,
  Sidebar,
  type SidebarCurrent,
} from '../views/index.js';
import { sidebarData } from './sidebar.js';

/** The sidebar of a reading page. */
export async function sidebarFor(c: Context<WebEnv>, current: SidebarCurrent) {
  return (await readingSidebar(c, current)).sidebar;
}

/**
 * The sidebar of a reading page, and the count its title starts with: the view's own unread count (All
 * unread, the channel, or the channel's feed shown) as the sidebar draws it.
 */
export async function readingSidebar(c: Context<WebEnv>, current: SidebarCurrent) {
  const data = await sidebarData(depsOf(c).store, current);
  let titleCount: LayoutProps['titleCount'];
  if (current !== undefined && 'all' in current) titleCount = { key: ALL_COUNT_KEY, unread: data.allUnread };
  else if (current !== undefined && 'channel' in current) {
    const channel = data.channels.find((ch) => ch.uid === current.channel);
    const feed = channel?.feeds.find((f) => f.id === current.feed);
    if (channel && current.feed === undefined)
      titleCount = { key: channelCountKey(channel.uid), unread: channel.unread };
    else if (channel && feed) titleCount = { key: feedCountKey(channel.uid, feed.id), unread: feed.unread };
  }
  return { sidebar: <Sidebar {...data} />, titleCount };
}

/**
 * The uid of the channel each of these feeds' entries acts in on All unread and Saved (the reading
 * module's rule: the first channel, in the sidebar's order, that follows the feed).
 */
export async function channelOfFeed(
  c: Context<WebEnv>,
  feedIds: readonly number[],
): Promise<Map<number, string>> {
  const byFeed = await channelsActingFor(depsOf(c).store, feedIds);
  return new Map([...byFeed].map(([feedId, ch]) => [feedId, ch.uid]));
}

/**
 * The feed a channel's view is narrowed to (`?feed=ID`), as the channel follows it: undefined when none
 * is asked; a feed the channel does not follow (or no id at all) is a 404, not an empty view of it.
 */
export async function feedInChannel(
  c: Context<WebEnv>,
  channel: Channel,
  value: string | undefined,
): Promise<SubscriptionRef | undefined> {
  if (value === undefined || value === '') return undefined;
  const feedId = idOf(value);
  const [ref] = feedId
    ? await depsOf(c).store.channels.listSubscriptionRefs({ channelId: channel.id, feedIds: [feedId] })
    : [];
  if (!ref) throw new ClientError(404, `web: ${channel.name} follows no such feed`);
  return ref;
}

/**
 * The actions' context of a page mixing channels (All unread, Saved): the page's own, and each entry's,
 * acting in the first channel that follows its feed ('' when none does).
 */
export async function entryContextsByFeed(
  c: Context<WebEnv>,
  ctx: WebContext,
  scope: ViewScope,
  entries: readonly TimelineEntry[],
): Promise<{ base: EntryContext; ctxOf: (entry: TimelineEntry) => EntryContext }> {
  const base = entryContext(c, ctx, { uid: '' }, scope);
  const channelOf = await channelOfFeed(
    c,
    entries.map((entry) => entry.feedId),
  );
  return { base, ctxOf: (entry) => ({ ...base, channelUid: channelOf.get(entry.feedId) ?? '' }) };
}

/** What entry actions need: the channel they act in, the CSRF token, the page to come back to. */
export function entryContext(
  c: Context<WebEnv>,
  ctx: WebContext,
  channel: { uid: string },
  scope: ViewScope,
): EntryContext {
  const url = new URL(c.req.url);
  url.searchParams.delete('undo');
  return {
    channelUid: channel.uid,
    scope,
    csrf: sessionOf(c).csrf,
    returnTo: url.pathname + url.search,
    now: ctx.deps.now(),
  };
}
