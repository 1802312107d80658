import type { Hono } from 'hono';
import type { Store } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field } from '../forms.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import { ChannelsView } from '../views/index.js';

/** GET /channels; POST /channels, /channels/:uid/{rename,move,delete} */
export function registerChannels(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/channels', async (c) => {
    const { store } = depsOf(c);
    const [channels, counts, subscriptions] = await Promise.all([
      store.channels.list(),
      store.reading.unreadCounts(),
      store.channels.listSubscriptions(),
    ]);
    const rows = channels.map((ch) => ({
      uid: ch.uid,
      name: ch.name,
      unread: counts.find((count) => count.channelId === ch.id)?.unread ?? 0,
      feeds: subscriptions.filter((s) => s.channelId === ch.id).length,
    }));
    const children = <ChannelsView channels={rows} csrf={sessionOf(c).csrf} />;
    return renderPage(c, ctx, { title: 'Channels', nav: 'channels', children });
  });
  app.post('/channels', async (c) => {
    const { store } = depsOf(c);
    const name = (await field(c, 'name')).slice(0, 200);
    if (!name) return errorPage(c, ctx, 400, 'A channel needs a name.');
    await store.channels.create(name);
    return redirectWith(c, ctx, '/channels', `Created the channel ${name}.`);
  });
  app.post('/channels/:uid/rename', async (c) => {
    const { store } = depsOf(c);
    const channel = await store.channels.get(c.req.param('uid'));
    const name = (await field(c, 'name')).slice(0, 200);
    if (!channel) return errorPage(c, ctx, 404, 'There is no such channel.');
    if (!name) return errorPage(c, ctx, 400, 'A channel needs a name.');
    await store.channels.rename(channel.uid, name);
    return redirectWith(c, ctx, '/channels', `Renamed ${channel.name} to ${name}.`);
  });
  app.post('/channels/:uid/move', async (c) => {
    const uid = c.req.param('uid');
    const up = (await field(c, 'direction')) === 'up';
    if (!(await moveChannel(depsOf(c).store, uid, up)))
      return errorPage(c, ctx, 404, 'There is no such channel.');
    return redirectWith(c, ctx, '/channels');
  });
  app.post('/channels/:uid/delete', async (c) => {
    const { store } = depsOf(c);
    const channel = await store.channels.get(c.req.param('uid'));
    if (!channel) return errorPage(c, ctx, 404, 'There is no such channel.');
    if (channel.uid === 'notifications') return errorPage(c, ctx, 400, 'The notifications channel stays.');
    await store.channels.delete(channel.uid);
    return redirectWith(c, ctx, '/channels', `Deleted the channel ${channel.name}.`);
  });
}

/** Swaps a channel with its neighbour; false when there is no such (movable) channel. */
async function moveChannel(store: Store, uid: string, up: boolean): Promise<boolean> {
  const channels = (await store.channels.list())
    .filter((ch) => ch.uid !== 'notifications')
    .sort((a, b) => a.position - b.position);
  const order = channels.map((ch) => ch.uid);
  const i = order.indexOf(uid);
  if (i < 0) return false;
  const j = up ? i - 1 : i + 1;
  if (j < 0 || j >= order.length) return true;
  [order[i], order[j]] = [order[j] as string, order[i] as string];
  await store.channels.order(order);
  return true;
}
