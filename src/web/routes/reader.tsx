import type { Context, Hono } from 'hono';
import type { Channel } from '../../model/index.js';
import { openInChannel, undoableCount } from '../../reading/index.js';
import { parseSearchQuery } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf, localPath } from '../forms.js';
import { undoLogOf } from '../reading-jobs.js';
import { parseReadingMode, readingModeOf, rememberReadingMode } from '../reading-mode.js';
import { depsOf, errorPage, renderPage, userOf } from '../render.js';
import type { ViewScope } from '../views/index.js';
import { SearchView, safeHref, TimelineView } from '../views/index.js';
import { registerEntryPages } from './entry-page.js';
import {
  entryContext,
  entryContextsByFeed,
  feedInChannel,
  readingSidebar,
  sidebarFor,
} from './reading-context.js';

const PAGE_SIZE = 20;
const LIST_PAGE_SIZE = 50;

/** GET /, /all, /c/:uid (timeline, per source, unread only), /c/:uid/open/:id, /search; POST /mode */
export function registerReader(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/', async (c) => {
    const channels = await depsOf(c).store.channels.list();
    // a new reader has only Notifications: start where the first feed gets followed
    if (!channels.some((ch) => ch.uid !== 'notifications')) return c.redirect('/subscriptions', 303);
    return c.redirect('/all', 303);
  });
  app.get('/all', (c) => allUnreadPage(c, ctx));
  app.get('/c/:uid', (c) => timelinePage(c, ctx));
  app.get('/c/:uid/open/:id', async (c) => {
    const deps = depsOf(c);
    const channel = await deps.store.channels.get(c.req.param('uid'));
    const id = idOf(c.req.param('id'));
    const entry = channel && id ? await openInChannel(deps, channel, id) : undefined;
    if (!channel || !entry) return errorPage(c, ctx, 404, 'There is no such entry in this channel.');
    // only http(s): a feed's `javascript:` link must not become our redirect
    const target = safeHref(entry.url);
    return target ? c.redirect(target, 303) : c.redirect(`/c/${encodeURIComponent(channel.uid)}`, 303);
  });
  app.get('/search', (c) => searchPage(c, ctx));
  app.post('/mode', async (c) => {
    const mode = parseReadingMode(await field(c, 'mode'));
    if (!mode) return errorPage(c, ctx, 400, 'The reading mode is either river or list.');
    rememberReadingMode(c, mode);
    return c.redirect(localPath(await field(c, 'return'), '/'), 303);
  });
  registerEntryPages(app, ctx);
}

/** Entries per page: more titles in the list than entries in the river. */
export function pageSize(c: Context<WebEnv>): number {
  return readingModeOf(c) === 'list' ? LIST_PAGE_SIZE : PAGE_SIZE;
}

/** The undo notice a page shows after a mark-all (`?undo=TOKEN`), while the log keeps it. */
function undoOf(c: Context<WebEnv>, ctx: WebContext) {
  const token = c.req.query('undo');
  const count = token ? undoableCount(undoLogOf(ctx, userOf(c).id), token, ctx.deps.now()) : undefined;
  return token && count !== undefined ? { token, count } : undefined;
}

async function timelinePage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const channel = await store.channels.get(c.req.param('uid') ?? '');
  if (!channel) return errorPage(c, ctx, 404, 'There is no such channel.');
  const feed = await feedInChannel(c, channel, c.req.query('feed'));
  const unreadOnly = c.req.query('unread') === '1';
  const before = c.req.query('before');
  const after = c.req.query('after');
  const page = await store.reading.timeline({
    channelId: channel.id,
    limit: pageSize(c),
    ...(feed ? { feedId: feed.feedId } : {}),
    ...(unreadOnly ? { unreadOnly } : {}),
    ...(after ? { after } : before ? { before } : {}),
  });
  const source = feed ? { id: feed.feedId, title: feed.title ?? feed.url } : undefined;
  const scope: ViewScope = { channelUid: channel.uid, feedId: feed?.feedId, unreadOnly };
  const view = (
    <TimelineView
      channel={channel}
      source={source}
      unreadOnly={unreadOnly}
      page={page}
      paged={Boolean(after || before)}
      ctx={entryContext(c, ctx, channel, scope)}
      mode={readingModeOf(c)}
      undo={undoOf(c, ctx)}
    />
  );
  const { sidebar, titleCount } = await readingSidebar(c, { channel: channel.uid, feed: feed?.feedId });
  const title = source ? `${source.title} · ${channel.name}` : channel.name;
  return renderPage(c, ctx, { title, titleCount, nav: 'reader', sidebar, children: view });
}

async function allUnreadPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const before = c.req.query('before');
  const after = c.req.query('after');
  const page = await store.reading.allUnread({
    limit: pageSize(c),
    ...(after ? { after } : before ? { before } : {}),
  });
  const { base, ctxOf } = await entryContextsByFeed(c, ctx, {}, page.entries);
  const view = (
    <TimelineView
      unreadOnly={true}
      page={page}
      paged={Boolean(after || before)}
      ctx={base}
      ctxOf={ctxOf}
      mode={readingModeOf(c)}
      undo={undoOf(c, ctx)}
    />
  );
  const { sidebar, titleCount } = await readingSidebar(c, { all: true });
  return renderPage(c, ctx, { title: 'All unread', titleCount, nav: 'reader', sidebar, children: view });
}

async function searchPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const query = (c.req.query('q') ?? '').trim();
  const uid = c.req.query('channel');
  const channel: Channel | undefined = uid ? await store.channels.get(uid) : undefined;
  if (uid && !channel) return errorPage(c, ctx, 404, 'There is no such channel.');
  const after = c.req.query('after');
  const page = query
    ? await store.reading.search({
        query,
        limit: PAGE_SIZE,
        ...(channel ? { channelId: channel.id } : {}),
        ...(after ? { after } : {}),
      })
    : undefined;
  const more = page?.after ? new URLSearchParams({ q: query, after: page.after }) : undefined;
  if (more && channel) more.set('channel', channel.uid);
  // across channels, each entry acts in the first channel that follows its feed, as on All unread
  const ctxFor = channel
    ? { ctxOf: () => entryContext(c, ctx, channel, { channelUid: channel.uid }) }
    : await entryContextsByFeed(c, ctx, {}, page?.entries ?? []);
  const view = (
    <SearchView
      query={query}
      terms={parseSearchQuery(query).include}
      channel={channel}
      page={page}
      moreHref={more && `/search?${more}`}
      ctxOf={ctxFor.ctxOf}
    />
  );
  const sidebar = await sidebarFor(c, channel ? { channel: channel.uid } : undefined);
  return renderPage(c, ctx, { title: `Search: ${query}`, nav: 'reader', sidebar, children: view });
}
