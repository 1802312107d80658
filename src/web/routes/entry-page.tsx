import type { Context, Hono } from 'hono';
import { markOpened, openAnywhere } from '../../reading/index.js';
import type { TimelineEntry } from '../../store/index.js';
import { encodeCursor } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { idOf } from '../forms.js';
import { depsOf, errorPage, renderPage } from '../render.js';
import {
  EntryPage,
  entryHeading,
  entryPageHref,
  type ViewScope,
  viewHref,
  withQuery,
} from '../views/index.js';
import { entryContext, feedInChannel, sidebarFor } from './reading-context.js';

/**
 * GET /c/:uid/e/:id (an entry opened from a channel, `?feed=` and `?unread=1` as the view it came from)
 * and /all/e/:id (from All unread). Opening an entry marks it read: in that channel, or from All unread in
 * every channel that follows its feed.
 */
export function registerEntryPages(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/c/:uid/e/:id', (c) => channelEntryPage(c, ctx));
  app.get('/all/e/:id', (c) => allEntryPage(c, ctx));
}

function cursorOf(entry: TimelineEntry): string {
  return encodeCursor({ sortAt: entry.sortAt, id: entry.id });
}

async function channelEntryPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const channel = await store.channels.get(c.req.param('uid') ?? '');
  const id = idOf(c.req.param('id'));
  const [found] = channel && id ? await store.reading.entriesById(channel.id, [id]) : [];
  if (!channel || !found) return errorPage(c, ctx, 404, 'There is no such entry in this channel.');
  const feed = (await feedInChannel(c, channel, c.req.query('feed')))?.feedId;
  const unreadOnly = c.req.query('unread') === '1';
  const entry = await markOpened(depsOf(c), channel, found);
  const scope: ViewScope = { channelUid: channel.uid, feedId: feed, unreadOnly };
  const view = { channelId: channel.id, limit: 1, feedId: feed };
  // next: the older entry of the view (the next unread one in an unread view); previous: the newer one,
  // read or not, so that the entry just read can be reached again
  const [older, newer] = await Promise.all([
    store.reading.timeline({ ...view, unreadOnly, after: cursorOf(entry) }),
    store.reading.timeline({ ...view, before: cursorOf(entry) }),
  ]);
  const next = older.entries[0];
  const previous = newer.entries[0];
  const page = (
    <EntryPage
      entry={entry}
      ctx={entryContext(c, ctx, channel, scope)}
      back={{ href: viewHref(scope), title: `Back to ${channel.name}` }}
      previousHref={previous && entryPageHref(scope, previous.id)}
      nextHref={next && entryPageHref(scope, next.id)}
    />
  );
  const sidebar = await sidebarFor(c, { channel: channel.uid, feed });
  return renderPage(c, ctx, { title: entryHeading(entry), nav: 'reader', sidebar, children: page });
}

async function allEntryPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const id = idOf(c.req.param('id'));
  // it acts in the first channel that follows its feed, and is marked read in all of them
  const opened = id ? await openAnywhere(depsOf(c), id) : undefined;
  if (!opened) return errorPage(c, ctx, 404, 'There is no such entry in your channels.');
  const { entry, channel } = opened;
  const scope: ViewScope = {};
  const older = await depsOf(c).store.reading.allUnread({ limit: 1, after: cursorOf(entry) });
  const next = older.entries[0];
  // the entries above were read on the way here: "previous" is the one this page was reached from
  const from = idOf(c.req.query('from'));
  const page = (
    <EntryPage
      entry={entry}
      ctx={entryContext(c, ctx, channel, scope)}
      back={{ href: viewHref(scope), title: 'Back to All unread' }}
      previousHref={from === undefined ? undefined : entryPageHref(scope, from)}
      nextHref={next && withQuery(entryPageHref(scope, next.id), { from: String(entry.id) })}
    />
  );
  const sidebar = await sidebarFor(c, { all: true });
  return renderPage(c, ctx, { title: entryHeading(entry), nav: 'reader', sidebar, children: page });
}
