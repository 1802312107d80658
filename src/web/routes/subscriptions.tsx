import type { Context, Hono } from 'hono';
import { healthOf } from '../../model/index.js';
import { isSilent } from '../../poll/index.js';
import { type FeedPreview, type Preview, previewEntries, previewUrl } from '../../reading/index.js';
import { pickerOrder, type Store } from '../../store/index.js';
import { channelsFollowing, findChannel, follow, move, unfollow } from '../../subscriptions/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf } from '../forms.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import {
  type Candidate,
  count,
  DiscoverView,
  FollowedElsewhereView,
  type SubscriptionGroup,
  SubscriptionsView,
  safeHref,
} from '../views/index.js';
import { registerFeedSettings } from './feed-settings.js';

const PREVIEW_ENTRIES = 5;
const PREVIEW_FEEDS = 4;

/**
 * GET /subscriptions[?q=]; POST /subscriptions/{discover,follow}, /subscriptions/:feedId/{move,unfollow};
 * the feed settings pages. Following, moving and unfollowing are the subscriptions module's: these
 * routes read the form, call it, and show its answer.
 */
export function registerSubscriptions(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/subscriptions', (c) => subscriptionsPage(c, ctx));
  app.post('/subscriptions/discover', (c) => discoverPage(c, ctx));
  app.post('/subscriptions/follow', (c) => followPost(c, ctx));
  app.post('/subscriptions/:feedId/move', async (c) => {
    const feedId = idOf(c.req.param('feedId'));
    const [from, to] = [await field(c, 'from'), await field(c, 'to')];
    if (!feedId || !to) return errorPage(c, ctx, 404, 'There is no such feed or channel.');
    const result = await move(depsOf(c), { feedId, to, ...(from ? { from } : {}) });
    if (result.kind !== 'moved') return errorPage(c, ctx, 404, 'There is no such feed or channel.');
    const names = result.from.map((ch) => ch.name).join(', ');
    return redirectWith(
      c,
      ctx,
      '/subscriptions',
      `Moved it from ${names || 'where it was'} to ${result.to.name}.`,
    );
  });
  app.post('/subscriptions/:feedId/unfollow', async (c) => {
    const feedId = idOf(c.req.param('feedId'));
    const channel = await field(c, 'channel');
    if (!feedId || !channel) return errorPage(c, ctx, 404, 'There is no such feed or channel.');
    const result = await unfollow(depsOf(c), { feedId, channel });
    if (result.kind !== 'unfollowed') return errorPage(c, ctx, 404, 'There is no such feed or channel.');
    const after = result.unfollowed ? ' No channel follows it now: it is no longer fetched.' : '';
    return redirectWith(
      c,
      ctx,
      '/subscriptions',
      `Unfollowed ${result.feed.title ?? result.feed.url}.${after}`,
    );
  });
  registerFeedSettings(app, ctx);
}

async function subscriptionsPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const { store } = depsOf(c);
  const query = (c.req.query('q') ?? '').trim();
  const [channels, subscriptions] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptions(),
  ]);
  const now = ctx.deps.now();
  const wanted = query.toLowerCase();
  const matches = subscriptions.filter(({ feed }) =>
    [feed.title, feed.url, feed.siteUrl].some((text) => text?.toLowerCase().includes(wanted)),
  );
  const groups: SubscriptionGroup[] = channels
    .map((channel) => ({
      channel,
      feeds: matches
        .filter((s) => s.channelId === channel.id)
        .map(({ feed }) => ({
          feed,
          health: healthOf(feed, isSilent(feed.lastNewEntryAt, feed.cadenceSeconds, now)),
        }))
        .sort((a, b) => (a.feed.title ?? a.feed.url).localeCompare(b.feed.title ?? b.feed.url)),
    }))
    .filter((group) => group.feeds.length > 0);
  const children = (
    <SubscriptionsView
      groups={groups}
      channels={pickerOrder(channels)}
      csrf={sessionOf(c).csrf}
      now={now}
      query={query}
      total={subscriptions.length}
    />
  );
  return renderPage(c, ctx, { title: 'Subscriptions', nav: 'subscriptions', children });
}

async function discoverPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const url = withScheme(await field(c, 'url'));
  const { store } = depsOf(c);
  const channels = pickerOrder(await store.channels.list());
  const props = { url, channels, csrf: sessionOf(c).csrf, isPage: false, candidates: [] as Candidate[] };
  if (!safeHref(url)) {
    const children = <DiscoverView {...props} error="That is not an http or https URL." />;
    return renderPage(c, ctx, { title: 'Follow a feed', nav: 'subscriptions', children }, 400);
  }
  const found = await previewUrl(ctx.deps, url, PREVIEW_FEEDS);
  const candidates = await candidatesOf(store, found, ctx.deps.now());
  const error = found.kind === 'error' ? found.message : undefined;
  const children = (
    <DiscoverView {...props} isPage={found.kind === 'page'} candidates={candidates} error={error} />
  );
  return renderPage(c, ctx, { title: 'Follow a feed', nav: 'subscriptions', children });
}

// A page's feeds are fetched too (a few, at once), so that each comes with its preview.
async function candidatesOf(store: Store, found: Preview, now: Date): Promise<Candidate[]> {
  if (found.kind === 'error') return [];
  const listed =
    found.kind === 'feed'
      ? [candidateOf(found.feed, now)]
      : found.feeds.map((link) => {
          if (link.preview)
            return { ...candidateOf(link.preview, now), title: link.preview.result.feed.title ?? link.title };
          const error = link.error ?? 'This link leads to a web page, not a feed.';
          return { url: link.url, title: link.title, entries: [], error };
        });
  return Promise.all(listed.map((candidate) => withFollowers(store, candidate)));
}

/** Says which of the user's channels follow a candidate already, so the page can say so before Follow is pressed. */
async function withFollowers(store: Store, candidate: Candidate): Promise<Candidate> {
  const known = await store.feeds.findByUrl(candidate.url);
  if (!known) return candidate;
  const channels = await channelsFollowing(store, known.id);
  return channels.length > 0 ? { ...candidate, followedIn: channels.map((ch) => ch.name) } : candidate;
}

function candidateOf(preview: FeedPreview, now: Date): Candidate {
  const { result } = preview;
  return {
    url: preview.url,
    title: result.feed.title,
    format: result.version,
    // the latest entries, as Microsub's preview gives them and the channel will show them
    entries: previewEntries(preview, now, PREVIEW_ENTRIES).map((entry) => ({
      title: entry.title,
      link: entry.url,
      published: entry.published ?? entry.updated,
    })),
  };
}

// Follow through the module: a new feed is fetched at once, so its entries are there when the channel opens.
async function followPost(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const url = await field(c, 'url');
  const channel = (await field(c, 'new_channel')) || (await field(c, 'channel'));
  const also = (await field(c, 'also')) === '1';
  const deps = depsOf(c);
  const result = await follow(deps, { url, ...(channel ? { channel } : {}), inAnotherChannel: also });
  switch (result.kind) {
    case 'refused':
      return errorPage(c, ctx, 400, result.message);
    case 'already':
      return redirectWith(
        c,
        ctx,
        `/c/${encodeURIComponent(result.channel.uid)}?feed=${result.feed.id}`,
        `You already follow ${result.feed.title ?? result.feed.url} in ${result.channel.name}: nothing changed.`,
      );
    case 'elsewhere': {
      const named = channel ? await findChannel(deps.store, channel) : undefined;
      const target = channel ? { ref: channel, name: named?.name ?? channel } : undefined;
      const children = (
        <FollowedElsewhereView
          feed={result.feed}
          channels={result.channels}
          target={target}
          csrf={sessionOf(c).csrf}
        />
      );
      // a question (move it, or follow it here too?), not a failure: 200, so the browser logs no error
      return renderPage(c, ctx, { title: 'Already followed', nav: 'subscriptions', children });
    }
    case 'followed': {
      const { feed, firstFetch } = result;
      const problem = firstFetch.message ? ` (${firstFetch.message})` : '';
      const message = `Following ${feed.title ?? feed.url} in ${result.channel.name}: ${count(firstFetch.newEntries, 'entry', 'entries')}.${problem}`;
      return redirectWith(c, ctx, `/c/${encodeURIComponent(result.channel.uid)}?feed=${feed.id}`, message);
    }
  }
}

/** People paste `example.com`: assume https. */
function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}
