import type { Context, Hono } from 'hono';
import { healthOf } from '../../model/stored.js';
import { type Discovery, discover } from '../../poll/discover.js';
import { pollOnce } from '../../poll/poller.js';
import { isSilent } from '../../poll/scheduler.js';
import { channelNamed, pickerOrder } from '../../store/channel-choice.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf } from '../forms.js';
import { errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import { type Candidate, DiscoverView } from '../views/discover.js';
import { count, safeHref } from '../views/format.js';
import { type SubscriptionGroup, SubscriptionsView } from '../views/subscriptions.js';

const PREVIEW_ENTRIES = 5;
const PREVIEW_FEEDS = 4;

/** GET /subscriptions; POST /subscriptions/{discover,follow}, /subscriptions/:feedId/{move,unfollow} */
export function registerSubscriptions(app: Hono<WebEnv>, ctx: WebContext): void {
  const { store } = ctx.deps;
  app.get('/subscriptions', (c) => subscriptionsPage(c, ctx));
  app.post('/subscriptions/discover', (c) => discoverPage(c, ctx));
  app.post('/subscriptions/follow', (c) => follow(c, ctx));
  app.post('/subscriptions/:feedId/move', async (c) => {
    const feedId = idOf(c.req.param('feedId'));
    const [from, to] = await Promise.all([
      store.getChannel(await field(c, 'from')),
      store.getChannel(await field(c, 'to')),
    ]);
    if (!feedId || !from || !to) return errorPage(c, ctx, 404, 'There is no such feed or channel.');
    await store.moveSubscription(feedId, from.id, to.id, ctx.deps.now().toISOString());
    return redirectWith(c, ctx, '/subscriptions', `Moved it from ${from.name} to ${to.name}.`);
  });
  app.post('/subscriptions/:feedId/unfollow', async (c) => {
    const feed = await store.getFeed(idOf(c.req.param('feedId')) ?? 0);
    const channel = await store.getChannel(await field(c, 'channel'));
    if (!feed || !channel) return errorPage(c, ctx, 404, 'There is no such feed or channel.');
    await store.removeFeedEntries(channel.id, feed.id, ctx.deps.now().toISOString());
    await store.unsubscribe(channel.id, feed.id);
    // followed nowhere else: stop polling it for nobody
    if ((await store.listSubscriptions()).every((s) => s.feedId !== feed.id)) await store.removeFeed(feed.id);
    return redirectWith(c, ctx, '/subscriptions', `Unfollowed ${feed.title ?? feed.url}.`);
  });
}

async function subscriptionsPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = ctx.deps;
  const [channels, subscriptions] = await Promise.all([store.listChannels(), store.listSubscriptions()]);
  const now = ctx.deps.now();
  const groups: SubscriptionGroup[] = channels
    .map((channel) => ({
      channel,
      feeds: subscriptions
        .filter((s) => s.channelId === channel.id)
        .map(({ feed }) => ({
          feed,
          health: healthOf(feed, isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now)),
        }))
        .sort((a, b) => (a.feed.title ?? a.feed.url).localeCompare(b.feed.title ?? b.feed.url)),
    }))
    .filter((group) => group.feeds.length > 0);
  const children = (
    <SubscriptionsView groups={groups} channels={pickerOrder(channels)} csrf={sessionOf(c).csrf} now={now} />
  );
  return renderPage(c, ctx, { title: 'Subscriptions', nav: 'subscriptions', children });
}

async function discoverPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const url = withScheme(await field(c, 'url'));
  const channels = pickerOrder(await ctx.deps.store.listChannels());
  const props = { url, channels, csrf: sessionOf(c).csrf, isPage: false, candidates: [] as Candidate[] };
  if (!safeHref(url)) {
    const children = <DiscoverView {...props} error="That is not an http or https URL." />;
    return renderPage(c, ctx, { title: 'Follow a feed', nav: 'subscriptions', children }, 400);
  }
  const found = await discover(ctx.deps.poll, url);
  const candidates = await candidatesOf(ctx, found);
  const error = found.kind === 'error' ? found.message : undefined;
  const children = (
    <DiscoverView {...props} isPage={found.kind === 'page'} candidates={candidates} error={error} />
  );
  return renderPage(c, ctx, { title: 'Follow a feed', nav: 'subscriptions', children });
}

// A page's feeds are fetched too (a few, at once), so that each comes with its preview.
async function candidatesOf(ctx: WebContext, found: Discovery): Promise<Candidate[]> {
  if (found.kind === 'feed') return [candidateOf(found)];
  if (found.kind === 'error') return [];
  return Promise.all(
    found.feeds.slice(0, PREVIEW_FEEDS).map(async (link) => {
      const feed = await discover(ctx.deps.poll, link.url);
      if (feed.kind === 'feed') return { ...candidateOf(feed), title: feed.result.feed.title ?? link.title };
      const error = feed.kind === 'error' ? feed.message : 'This link leads to a web page, not a feed.';
      return { url: link.url, title: link.title, entries: [], error };
    }),
  );
}

function candidateOf(found: Extract<Discovery, { kind: 'feed' }>): Candidate {
  const { result } = found;
  return {
    url: found.url,
    title: result.feed.title,
    format: result.version,
    entries: result.entries.slice(0, PREVIEW_ENTRIES).map((entry) => ({
      title: entry.title,
      link: entry.link,
      published: entry.published ?? entry.updated,
    })),
  };
}

// Follow, then fetch at once: its current entries are there when the timeline opens.
async function follow(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = ctx.deps;
  const url = await field(c, 'url');
  if (!safeHref(url)) return errorPage(c, ctx, 400, 'That is not an http or https URL.');
  const channel = await channelNamed(store, (await field(c, 'new_channel')) || (await field(c, 'channel')));
  const now = ctx.deps.now().toISOString();
  const feed = await store.addFeed(url, now);
  await store.subscribe(channel.id, feed.id, now);
  const summary = await pollOnce(ctx.deps.poll, { feedIds: [feed.id], force: true });
  const polled = await store.getFeed(feed.id);
  const name = polled?.title ?? url;
  const problem = polled?.status && polled.status !== 'ok' ? ` (${polled.message ?? polled.status})` : '';
  const message = `Following ${name} in ${channel.name}: ${count(summary.newEntries, 'entry', 'entries')}.${problem}`;
  return redirectWith(c, ctx, `/c/${encodeURIComponent(channel.uid)}?feed=${feed.id}`, message);
}

/** People paste `example.com`: assume https. */
function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}
