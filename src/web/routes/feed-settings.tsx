import type { Context, Hono } from 'hono';
import type { StoredFeed } from '../../model/index.js';
import {
  channelsFollowing,
  type FeedSettings,
  feedAsSeen,
  updateFeedSettings,
} from '../../subscriptions/index.js';
import { withoutModule } from '../client-error.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, formOf, idOf } from '../forms.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf, userOf } from '../render.js';
import { FeedSettingsView } from '../views/index.js';

/**
 * GET /subscriptions/:feedId (a feed's settings form); POST /subscriptions/:feedId/settings. A feed the
 * user does not follow is missing (404) unless they are an admin; its URL, interval and User-Agent are
 * the one shared fetch's, which only an admin may change while others follow it too.
 */
export function registerFeedSettings(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/subscriptions/:feedId', (c) => settingsPage(c, ctx));
  app.post('/subscriptions/:feedId/settings', async (c) => {
    const deps = depsOf(c);
    const actor = { isAdmin: userOf(c).isAdmin };
    const feedId = idOf(c.req.param('feedId'));
    const feed = feedId ? await feedAsSeen(deps.store, feedId, actor) : undefined;
    if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
    const settings = await settingsOf(c, feed);
    if (typeof settings === 'string') return settingsPage(c, ctx, settings);
    const result = await updateFeedSettings(deps, feed.id, settings, actor);
    if (result.kind === 'not-found') return errorPage(c, ctx, 404, 'There is no such feed.');
    if (result.kind === 'refused')
      return settingsPage(c, ctx, withoutModule(result.message), result.reason === 'shared' ? 403 : 400);
    return redirectWith(c, ctx, `/subscriptions/${feed.id}`, 'Saved.');
  });
}

async function settingsPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  error?: string,
  status: 400 | 403 = 400,
): Promise<Response> {
  const { store } = depsOf(c);
  const user = userOf(c);
  const feed = await feedAsSeen(store, idOf(c.req.param('feedId')) ?? 0, { isAdmin: user.isAdmin });
  if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
  const [channels, others] = await Promise.all([
    channelsFollowing(store, feed.id),
    store.channels.otherFollowers(feed.id),
  ]);
  const children = (
    <FeedSettingsView
      feed={feed}
      channels={channels}
      defaultIntervalMinutes={Math.round(ctx.deps.config.pollIntervalSeconds / 60)}
      csrf={sessionOf(c).csrf}
      error={error}
      isShared={!user.isAdmin && others > 0}
    />
  );
  return renderPage(
    c,
    ctx,
    { title: feed.title ?? feed.url, nav: 'subscriptions', children },
    error ? status : 200,
  );
}

/**
 * The form's fields as settings; an empty field goes back to the default. The fetch's settings (URL,
 * interval, User-Agent) are taken only when the form has them and they differ from the feed's: a
 * follower of a shared feed may still rename or pause it (the form leaves those fields out for them).
 */
async function settingsOf(c: Context<WebEnv>, feed: StoredFeed): Promise<FeedSettings | string> {
  const form = await formOf(c);
  const minutes = await field(c, 'interval_minutes');
  if (minutes !== '' && !/^\d{1,6}$/.test(minutes)) return 'The interval is a number of minutes.';
  const url = await field(c, 'url');
  const interval = minutes === '' ? null : Number(minutes) * 60;
  const userAgent = (await field(c, 'user_agent')) || null;
  return {
    title: (await field(c, 'title')) || null,
    ...(url && url !== feed.url ? { url } : {}),
    // the form shows whole minutes: a field left as shown keeps the stored seconds (61 s is not 60 s)
    ...('interval_minutes' in form && interval !== shownInterval(feed.pollIntervalSeconds)
      ? { pollIntervalSeconds: interval }
      : {}),
    ...('user_agent' in form && userAgent !== (feed.userAgent ?? null) ? { userAgent } : {}),
    paused: (await field(c, 'paused')) === '1',
  };
}

/** The interval as the form shows it, in seconds: whole minutes, or null for the default. */
function shownInterval(seconds: number | undefined): number | null {
  return seconds === undefined ? null : Math.round(seconds / 60) * 60;
}
