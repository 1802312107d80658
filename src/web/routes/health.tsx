import type { Context, Hono } from 'hono';
import type { FeedHealth } from '../../model/index.js';
import { healthOf, type StoredFeed } from '../../model/index.js';
import { explainNextCheck, isSilent, pollOnce } from '../../poll/index.js';
import type { FeedSummary, Store } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf, localPath } from '../forms.js';
import { type ListedFeed, readHealthQuery, selectFeeds } from '../health-list.js';
import { errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import { type FeedHealthRow, FeedPage, HealthDashboard } from '../views/index.js';

const STRIP_SLOTS = 30;
const HISTORY = 100;

/** GET /feeds (dashboard: filtered, sorted, paged by its query string), /feeds/:id; POST /feeds/:id/{refresh,pause} */
export function registerHealth(app: Hono<WebEnv>, ctx: WebContext): void {
  const { store } = ctx.deps;
  app.get('/feeds', async (c) => {
    const now = ctx.deps.now();
    const query = readHealthQuery(c.req.query());
    // Every feed is counted, filtered and sorted by its summary; whole rows of 2,000 feeds, and their
    // subscriptions with whole rows again, were 120 ms a request (issue 14).
    const [feeds, channels, followed] = await Promise.all([
      store.feeds.listSummaries(),
      store.channels.list(),
      query.channel === undefined ? new Set<number>() : feedsFollowedIn(store, query.channel),
    ]);
    const listed: ListedFeed[] = feeds.map((feed) => ({ feed, health: healthNow(feed, now) }));
    const selected = selectFeeds(listed, query, followed);
    // Heartbeats for the page's feeds only: all of them were 60,000 rows for 2,000 feeds.
    const heartbeats = await store.heartbeats.bars(
      selected.rows.map((row) => row.feed.id),
      STRIP_SLOTS,
    );
    const rows: FeedHealthRow[] = selected.rows.map((row) => ({
      ...row,
      heartbeats: heartbeats.get(row.feed.id) ?? [],
    }));
    const counts = new Map<FeedHealth, number>();
    for (const row of listed) counts.set(row.health, (counts.get(row.health) ?? 0) + 1);
    const children = (
      <HealthDashboard
        rows={rows}
        now={now}
        slots={STRIP_SLOTS}
        counts={counts}
        feedCount={feeds.length}
        channels={channels}
        query={{ ...query, page: selected.page }}
        matching={selected.total}
        pages={selected.pages}
      />
    );
    return renderPage(c, ctx, { title: 'Feed health', nav: 'feeds', children });
  });
  app.get('/feeds/:id', (c) => feedPage(c, ctx));
  app.post('/feeds/:id/refresh', async (c) => {
    const feed = await store.feeds.get(idOf(c.req.param('id')) ?? 0);
    if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
    await pollOnce(ctx.deps.poll, { feedIds: [feed.id], force: true });
    const polled = (await store.feeds.get(feed.id)) ?? feed;
    const outcome =
      polled.lastCheckedAt === feed.lastCheckedAt
        ? 'not polled (paused, gone or asked to wait)'
        : (polled.message ?? polled.status ?? '');
    const back = localPath(await field(c, 'return'), `/feeds/${feed.id}`);
    return redirectWith(c, ctx, back, `Refreshed ${titleOf(polled)}: ${outcome}`);
  });
  app.post('/feeds/:id/pause', async (c) => {
    const feed = await store.feeds.get(idOf(c.req.param('id')) ?? 0);
    if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
    const paused = (await field(c, 'paused')) === '1';
    await store.feeds.update(feed.id, { paused });
    const back = localPath(await field(c, 'return'), `/feeds/${feed.id}`);
    return redirectWith(c, ctx, back, paused ? 'Paused: it will not be polled.' : 'Resumed polling.');
  });
}

async function feedPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = ctx.deps;
  const feed = await store.feeds.get(idOf(c.req.param('id')) ?? 0);
  if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
  const now = ctx.deps.now();
  const [heartbeats, subscriptions, channels] = await Promise.all([
    store.heartbeats.list(feed.id, HISTORY),
    store.channels.listSubscriptions(),
    store.channels.list(),
  ]);
  const following = new Set(subscriptions.filter((s) => s.feedId === feed.id).map((s) => s.channelId));
  const children = (
    <FeedPage
      feed={feed}
      health={healthNow(feed, now)}
      heartbeats={heartbeats}
      nextCheck={explainNextCheck(feed, ctx.deps.config)}
      channels={channels.filter((ch) => following.has(ch.id))}
      csrf={sessionOf(c).csrf}
      now={now}
    />
  );
  return renderPage(c, ctx, { title: titleOf(feed), nav: 'feeds', children });
}

/** The ids of the feeds that the channel with this uid follows (none for an unknown uid). */
async function feedsFollowedIn(store: Store, uid: string): Promise<Set<number>> {
  const channel = await store.channels.get(uid);
  if (channel === undefined) return new Set();
  const refs = await store.channels.listSubscriptionRefs({ channelId: channel.id });
  return new Set(refs.map((ref) => ref.feedId));
}

function healthNow(feed: FeedSummary, now: Date) {
  return healthOf(feed, isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now));
}

function titleOf(feed: StoredFeed): string {
  return feed.title ?? feed.url;
}
