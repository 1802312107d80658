import type { Context, Hono } from 'hono';
import type { TimelineEntry } from '../../store/index.js';
import { encodeCursor } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { idOf } from '../forms.js';
import { errorPage, renderPage } from '../render.js';
import { EntryPage } from '../views/entry-page.js';
import { entryHeading } from '../views/format.js';
import { entryPageHref, type ViewScope, viewHref, withQuery } from '../views/hrefs.js';
import { entryContext, feedInChannel, firstChannelByFeed, sidebarFor } from './reading-context.js';

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
  const { store } = ctx.deps;
  const channel = await store.channels.get(c.req.param('uid') ?? '');
  const id = idOf(c.req.param('id'));
  const [entry] = channel && id ? await store.reading.entriesById(channel.id, [id]) : [];
  if (!channel || !entry) return errorPage(c, ctx, 404, 'There is no such entry in this channel.');
  const feed = (await feedInChannel(ctx, channel, c.req.query('feed')))?.feedId;
  const unreadOnly = c.req.query('unread') === '1';
  if (!entry.isRead) await store.reading.markRead(channel.id, [entry.id], true, ctx.deps.now().toISOString());
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
      entry={{ ...entry, isRead: true }}
      ctx={entryContext(c, ctx, channel, scope)}
      back={{ href: viewHref(scope), title: `Back to ${channel.name}` }}
      previousHref={previous && entryPageHref(scope, previous.id)}
      nextHref={next && entryPageHref(scope, next.id)}
    />
  );
  const sidebar = await sidebarFor(ctx, { channel: channel.uid, feed });
  return renderPage(c, ctx, { title: entryHeading(entry), nav: 'reader', sidebar, children: page });
}

async function allEntryPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = ctx.deps;
  const id = idOf(c.req.param('id'));
  const stored = id ? await store.entries.get(id) : undefined;
  // the channels following the entry's feed: it acts in the first, and is marked read in all of them
  const [channels, following] = stored
    ? await Promise.all([
        store.channels.list(),
        store.channels.listSubscriptionRefs({ feedIds: [stored.feedId] }),
      ])
    : [[], []];
  const channel = stored ? firstChannelByFeed(channels, following).get(stored.feedId) : undefined;
  const [entry] = channel && id ? await store.reading.entriesById(channel.id, [id]) : [];
  if (!channel || !entry) return errorPage(c, ctx, 404, 'There is no such entry in your channels.');
  const now = ctx.deps.now().toISOString();
  for (const sub of following) await store.reading.markRead(sub.channelId, [entry.id], true, now);
  const scope: ViewScope = {};
  const older = await store.reading.allUnread({ limit: 1, after: cursorOf(entry) });
  const next = older.entries[0];
  // the entries above were read on the way here: "previous" is the one this page was reached from
  const from = idOf(c.req.query('from'));
  const page = (
    <EntryPage
      entry={{ ...entry, isRead: true }}
      ctx={entryContext(c, ctx, channel, scope)}
      back={{ href: viewHref(scope), title: 'Back to All unread' }}
      previousHref={from === undefined ? undefined : entryPageHref(scope, from)}
      nextHref={next && withQuery(entryPageHref(scope, next.id), { from: String(entry.id) })}
    />
  );
  const sidebar = await sidebarFor(ctx, { all: true });
  return renderPage(c, ctx, { title: entryHeading(entry), nav: 'reader', sidebar, children: page });
}
