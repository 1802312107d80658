import type { Context, Hono } from 'hono';
import type { Channel, FeedHealth } from '../../model/index.js';
import { healthOf, type StoredFeed } from '../../model/index.js';
import { describePush, explainNextCheck, isSilent, pollOnce, pushStatusJson } from '../../poll/index.js';
import type { FeedSummary, SubscriptionRef } from '../../store/index.js';
import { channelsFollowing, feedAsSeen, updateFeedSettings } from '../../subscriptions/index.js';
import { withoutModule } from '../client-error.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf, localPath } from '../forms.js';
import { type HealthQuery, type ListedFeed, readHealthQuery, selectFeeds } from '../health-list.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf, userOf } from '../render.js';
import { type FeedHealthRow, FeedPage, HealthDashboard } from '../views/index.js';

const STRIP_SLOTS = 30;
const HISTORY = 100;

/**
 * GET /feeds (dashboard: filtered, sorted, paged by its query string; the feeds the user follows, or
 * with `all=1` every feed of the instance for an admin), /feeds/:id; POST /feeds/:id/{refresh,pause}. A
 * feed the user does not follow is missing (404) unless they are an admin, as a feed that does not exist.
 */
export function registerHealth(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/feeds', (c) => dashboard(c, ctx));
  app.get('/feeds/:id', (c) => feedPage(c, ctx));
  app.post('/feeds/:id/refresh', async (c) => {
    const feed = await visibleFeed(c);
    if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
    // the instance's poller: the one fetch every follower's channels get their entries from
    await pollOnce(ctx.deps.poll, { feedIds: [feed.id], force: true });
    const polled = (await visibleFeed(c)) ?? feed;
    const outcome =
      polled.lastCheckedAt === feed.lastCheckedAt
        ? 'not polled (paused, gone or asked to wait)'
        : (polled.message ?? polled.status ?? '');
    const back = localPath(await field(c, 'return'), `/feeds/${feed.id}`);
    return redirectWith(c, ctx, back, `Refreshed ${titleOf(polled)}: ${outcome}`);
  });
  app.post('/feeds/:id/pause', async (c) => {
    const feed = await visibleFeed(c);
    if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
    const paused = (await field(c, 'paused')) === '1';
    // the user's own pause (the feed is polled while any follower has it unpaused); an admin who does
    // not follow the feed has none
    const result = await updateFeedSettings(depsOf(c), feed.id, { paused }, { isAdmin: userOf(c).isAdmin });
    if (result.kind === 'refused') return errorPage(c, ctx, 403, withoutModule(result.message));
    if (result.kind !== 'updated') return errorPage(c, ctx, 404, 'There is no such feed.');
    const back = localPath(await field(c, 'return'), `/feeds/${feed.id}`);
    return redirectWith(c, ctx, back, paused ? 'Paused: it will not be polled.' : 'Resumed polling.');
  });
}

async function dashboard(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const isAdmin = userOf(c).isAdmin;
  const now = ctx.deps.now();
  const asked = readHealthQuery(c.req.query());
  const { all: _all, ...mine } = asked;
  const query: HealthQuery = asked.all && isAdmin ? asked : mine;
  // Every feed is counted, filtered and sorted by its summary; whole rows of 2,000 feeds, and their
  // subscriptions with whole rows again, were 120 ms a request (issue 14).
  const [channels, refs] = await Promise.all([store.channels.list(), store.channels.listSubscriptionRefs()]);
  // the feeds the user follows are read alone: an instance's other feeds are most of its feeds
  const summaries = await store.feeds.listSummaries(query.all ? undefined : refs.map((ref) => ref.feedId));
  const feeds = query.all ? summaries : followedSummaries(summaries, refs);
  const followed =
    query.channel === undefined ? new Set<number>() : feedsFollowedIn(channels, refs, query.channel);
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
      mayShowAll={isAdmin}
    />
  );
  return renderPage(c, ctx, { title: 'Feed health', nav: 'feeds', children });
}

/** The summaries of the feeds the user follows, each under the user's own title where they gave one. */
function followedSummaries(
  summaries: readonly FeedSummary[],
  refs: readonly SubscriptionRef[],
): FeedSummary[] {
  const titles = new Map<number, string | undefined>();
  for (const ref of refs) if (!titles.has(ref.feedId)) titles.set(ref.feedId, ref.title);
  return summaries
    .filter((feed) => titles.has(feed.id))
    .map((feed) => {
      const title = titles.get(feed.id);
      return title === undefined || title === feed.title ? feed : { ...feed, title };
    });
}

/** The feed of this request's `:id` as the user sees it; undefined when missing or not theirs to see. */
function visibleFeed(c: Context<WebEnv>): Promise<StoredFeed | undefined> {
  const id = idOf(c.req.param('id') ?? '');
  if (id === undefined) return Promise.resolve(undefined);
  return feedAsSeen(depsOf(c).store, id, { isAdmin: userOf(c).isAdmin });
}

async function feedPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const feed = await visibleFeed(c);
  if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
  const now = ctx.deps.now();
  const [heartbeats, channels, push] = await Promise.all([
    store.heartbeats.list(feed.id, HISTORY),
    channelsFollowing(store, feed.id),
    store.websub.get(feed.id),
  ]);
  const children = (
    <FeedPage
      feed={feed}
      health={healthNow(feed, now)}
      heartbeats={heartbeats}
      nextCheck={explainNextCheck(feed, ctx.deps.config)}
      push={{
        state: pushStatusJson(feed, push, now).state,
        words: describePush(push, ctx.deps.config.baseUrl !== undefined, now),
      }}
      channels={channels}
      csrf={sessionOf(c).csrf}
      now={now}
    />
  );
  return renderPage(c, ctx, { title: titleOf(feed), nav: 'feeds', children });
}

/** The ids of the feeds that the user's channel with this uid follows (none for an unknown uid). */
function feedsFollowedIn(
  channels: readonly Channel[],
  refs: readonly SubscriptionRef[],
  uid: string,
): Set<number> {
  const channel = channels.find((ch) => ch.uid === uid);
  if (channel === undefined) return new Set();
  return new Set(refs.filter((ref) => ref.channelId === channel.id).map((ref) => ref.feedId));
}

function healthNow(feed: FeedSummary, now: Date) {
  return healthOf(feed, isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now));
}

function titleOf(feed: StoredFeed): string {
  return feed.title ?? feed.url;
}
