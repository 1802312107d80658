import type { Context, Hono } from 'hono';
import type { Channel } from '../../model/stored.js';
import type { WebContext, WebEnv } from '../env.js';
import { idOf } from '../forms.js';
import { errorPage, renderPage, sessionOf } from '../render.js';
import { safeHref } from '../views/format.js';
import { type ChannelItem, type EntryContext, Sidebar } from '../views/reader.js';
import { SearchView } from '../views/search.js';
import { TimelineView } from '../views/timeline.js';

const PAGE_SIZE = 20;

/** GET /, /c/:uid (timeline, per source, unread only), /c/:uid/open/:id, /search */
export function registerReader(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/', async (c) => {
    const channels = await ctx.deps.store.listChannels();
    // a new reader has only Notifications: start where the first feed gets followed
    const first = channels.find((ch) => ch.uid !== 'notifications');
    if (!first) return c.redirect('/subscriptions', 303);
    return c.redirect(`/c/${encodeURIComponent(first.uid)}`, 303);
  });
  app.get('/c/:uid', (c) => timelinePage(c, ctx));
  app.get('/c/:uid/open/:id', async (c) => {
    const channel = await ctx.deps.store.getChannel(c.req.param('uid'));
    const id = idOf(c.req.param('id'));
    const [entry] = channel && id ? await ctx.deps.store.entriesById(channel.id, [id]) : [];
    if (!channel || !entry) return errorPage(c, ctx, 404, 'There is no such entry in this channel.');
    await ctx.deps.store.markRead(channel.id, [entry.id], true, ctx.deps.now().toISOString());
    // only http(s): a feed's `javascript:` link must not become our redirect
    const target = safeHref(entry.url);
    return target ? c.redirect(target, 303) : c.redirect(`/c/${encodeURIComponent(channel.uid)}`, 303);
  });
  app.get('/search', (c) => searchPage(c, ctx));
}

/** The sidebar's channels, in order, with unread counts. */
export async function sidebarChannels(ctx: WebContext): Promise<ChannelItem[]> {
  const [channels, counts] = await Promise.all([
    ctx.deps.store.listChannels(),
    ctx.deps.store.unreadCounts(),
  ]);
  const unread = new Map(counts.map((count) => [count.channelId, count.unread]));
  return channels.map((ch) => ({ uid: ch.uid, name: ch.name, unread: unread.get(ch.id) ?? 0 }));
}

async function timelinePage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = ctx.deps;
  const channel = await store.getChannel(c.req.param('uid') ?? '');
  if (!channel) return errorPage(c, ctx, 404, 'There is no such channel.');
  const feedId = idOf(c.req.query('feed'));
  const feed = feedId ? await store.getFeed(feedId) : undefined;
  const unreadOnly = c.req.query('unread') === '1';
  const before = c.req.query('before');
  const after = c.req.query('after');
  const page = await store.timeline({
    channelId: channel.id,
    limit: PAGE_SIZE,
    ...(feed ? { feedId: feed.id } : {}),
    ...(unreadOnly ? { unreadOnly } : {}),
    ...(after ? { after } : before ? { before } : {}),
  });
  const source = feed ? { id: feed.id, title: feed.title ?? feed.url } : undefined;
  const view = (
    <TimelineView
      channel={channel}
      source={source}
      unreadOnly={unreadOnly}
      page={page}
      paged={Boolean(after || before)}
      ctx={entryContext(c, ctx, channel)}
    />
  );
  const sidebar = <Sidebar channels={await sidebarChannels(ctx)} current={channel.uid} />;
  return renderPage(c, ctx, { title: channel.name, nav: 'reader', sidebar, children: view });
}

async function searchPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = ctx.deps;
  const query = (c.req.query('q') ?? '').trim();
  const uid = c.req.query('channel');
  const channel: Channel | undefined = uid ? await store.getChannel(uid) : undefined;
  if (uid && !channel) return errorPage(c, ctx, 404, 'There is no such channel.');
  const after = c.req.query('after');
  const page = query
    ? await store.searchEntries({
        query,
        limit: PAGE_SIZE,
        ...(channel ? { channelId: channel.id } : {}),
        ...(after ? { after } : {}),
      })
    : undefined;
  const more = page?.after ? new URLSearchParams({ q: query, after: page.after }) : undefined;
  if (more && channel) more.set('channel', channel.uid);
  const ctxFor = entryContext(c, ctx, channel ?? { uid: '' });
  const view = (
    <SearchView
      query={query}
      channel={channel}
      page={page}
      moreHref={more && `/search?${more}`}
      ctx={ctxFor}
    />
  );
  const sidebar = <Sidebar channels={await sidebarChannels(ctx)} current={channel?.uid} />;
  return renderPage(c, ctx, { title: `Search: ${query}`, nav: 'reader', sidebar, children: view });
}

/** What entry actions need: the channel they act in, the CSRF token, the page to come back to. */
export function entryContext(c: Context<WebEnv>, ctx: WebContext, channel: { uid: string }): EntryContext {
  const url = new URL(c.req.url);
  return {
    channelUid: channel.uid,
    csrf: sessionOf(c).csrf,
    returnTo: url.pathname + url.search,
    now: ctx.deps.now(),
  };
}
