import { NOTIFICATIONS_UID } from '../../store/index.js';
import { channelList, findChannel } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';

const MAX_NAME_LENGTH = 200;

/**
 * `action=channels` (Microsub spec, "Channels"): GET lists them with integer unread counts,
 * notifications first; POST creates (name), renames (channel + name), deletes (method=delete) or
 * orders them (method=order with channels[]).
 */
export async function channelsAction(ctx: ActionContext): Promise<object> {
  const { store } = ctx.deps;
  if (ctx.httpMethod === 'GET') return { channels: await channelList(store) };
  const method = ctx.params.one('method');
  if (method === 'delete') return deleteChannel(ctx);
  if (method === 'order') return orderChannels(ctx);
  if (method !== undefined) throw badRequest(`channels has no method ${method}`);
  const name = channelName(ctx.params.one('name'));
  const uid = ctx.params.one('channel');
  if (uid !== undefined) {
    await findChannel(store, uid);
    await store.channels.rename(uid, name);
    return channelView(ctx, uid);
  }
  const created = await store.channels.create(name);
  return { uid: created.uid, name: created.name, unread: 0 };
}

function channelName(name: string | undefined): string {
  if (name === undefined) throw badRequest('a channel needs a name');
  if (name.length > MAX_NAME_LENGTH)
    throw badRequest(`a channel name has at most ${MAX_NAME_LENGTH} characters`);
  return name;
}

async function channelView(ctx: ActionContext, uid: string): Promise<object> {
  const listed = (await channelList(ctx.deps.store)).find((c) => c.uid === uid);
  return listed ?? { uid };
}

async function deleteChannel(ctx: ActionContext): Promise<object> {
  const uid = ctx.params.one('channel');
  if (uid === undefined) throw badRequest('method=delete needs the channel to delete');
  // the spec: notifications is special and always exists
  if (uid === NOTIFICATIONS_UID) throw badRequest('the notifications channel cannot be deleted');
  await findChannel(ctx.deps.store, uid);
  await ctx.deps.store.channels.delete(uid);
  return {};
}

/**
 * `method=order`: the channels named swap into the places they held, in the order given (the store's
 * order). The spec answers with an empty 200; Together reads the channel list from the answer, so the
 * new list is sent (other clients ignore the body).
 */
async function orderChannels(ctx: ActionContext): Promise<object> {
  const uids = ctx.params.all('channels');
  if (uids.length === 0) throw badRequest('method=order needs channels[] in their new order');
  // a uid that names none of the user's channels is refused and nothing moves (Aperture refuses too);
  // not found, as an unknown channel is for every other action, and not echoed back
  const own = new Set((await ctx.deps.store.channels.list()).map((channel) => channel.uid));
  if (uids.some((uid) => !own.has(uid))) throw notFound('one or more of channels[] is no channel');
  await ctx.deps.store.channels.order(uids);
  return { channels: await channelList(ctx.deps.store) };
}
