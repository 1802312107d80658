import type { Context, Hono } from 'hono';
import { channelsFollowing, type FeedSettings, updateFeedSettings } from '../../subscriptions/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf } from '../forms.js';
import { errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import { FeedSettingsView } from '../views/index.js';

/** GET /subscriptions/:feedId (a feed's settings form); POST /subscriptions/:feedId/settings */
export function registerFeedSettings(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/subscriptions/:feedId', (c) => settingsPage(c, ctx));
  app.post('/subscriptions/:feedId/settings', async (c) => {
    const feedId = idOf(c.req.param('feedId'));
    if (!feedId) return errorPage(c, ctx, 404, 'There is no such feed.');
    const settings = await settingsOf(c);
    if (typeof settings === 'string') return settingsPage(c, ctx, settings);
    const result = await updateFeedSettings(ctx.deps, feedId, settings);
    if (result.kind === 'not-found') return errorPage(c, ctx, 404, 'There is no such feed.');
    if (result.kind === 'refused') return settingsPage(c, ctx, result.message);
    return redirectWith(c, ctx, `/subscriptions/${feedId}`, 'Saved.');
  });
}

async function settingsPage(c: Context<WebEnv>, ctx: WebContext, error?: string): Promise<Response> {
  const feed = await ctx.deps.store.feeds.get(idOf(c.req.param('feedId')) ?? 0);
  if (!feed) return errorPage(c, ctx, 404, 'There is no such feed.');
  const channels = await channelsFollowing(ctx.deps.store, feed.id);
  const children = (
    <FeedSettingsView
      feed={feed}
      channels={channels}
      defaultIntervalMinutes={Math.round(ctx.deps.config.pollIntervalSeconds / 60)}
      csrf={sessionOf(c).csrf}
      error={error}
    />
  );
  return renderPage(
    c,
    ctx,
    { title: feed.title ?? feed.url, nav: 'subscriptions', children },
    error ? 400 : 200,
  );
}

/** The form's fields as settings; an empty field goes back to the default. */
async function settingsOf(c: Context<WebEnv>): Promise<FeedSettings | string> {
  const minutes = await field(c, 'interval_minutes');
  if (minutes !== '' && !/^\d{1,6}$/.test(minutes)) return 'The interval is a number of minutes.';
  const url = await field(c, 'url');
  return {
    title: (await field(c, 'title')) || null,
    ...(url ? { url } : {}),
    pollIntervalSeconds: minutes === '' ? null : Number(minutes) * 60,
    userAgent: (await field(c, 'user_agent')) || null,
    paused: (await field(c, 'paused')) === '1',
  };
}
