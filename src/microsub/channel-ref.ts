import type { Channel } from '../model/index.js';
import type { Store } from '../store/index.js';
import type { ActionContext } from './context.js';
import { badRequest, notFound } from './errors.js';

/** The Microsub name of "every channel" for mute, block and search. */
export const GLOBAL = 'global';

/** The channel named by the `channel` parameter: 400 without one, 404 for an unknown uid. */
export async function requireChannel(ctx: ActionContext): Promise<Channel> {
  const uid = ctx.params.one('channel');
  if (uid === undefined) throw badRequest('the channel parameter is missing');
  return findChannel(ctx.deps.store, uid);
}

/** The channel with this uid; 404 when there is none. */
export async function findChannel(store: Store, uid: string): Promise<Channel> {
  const channel = await store.channels.get(uid);
  if (!channel) throw notFound(`there is no channel ${uid.slice(0, 200)}`);
  return channel;
}

/** The `channel` parameter where `global` (or no channel) means every channel: undefined for global. */
export async function channelOrGlobal(ctx: ActionContext): Promise<Channel | undefined> {
  const uid = ctx.params.one('channel');
  if (uid === undefined || uid === GLOBAL) return undefined;
  return findChannel(ctx.deps.store, uid);
}

/** Channels as Microsub lists them: uid, name and the unread count as an integer, in their order. */
export async function channelList(store: Store): Promise<{ uid: string; name: string; unread: number }[]> {
  const channels = await store.reading.channelSummaries();
  return channels.map((c) => ({ uid: c.uid, name: c.name, unread: c.unread }));
}

/** Entry ids as the client sends them back (our `_id` strings); 400 for one that is not an id. */
export function entryIds(values: readonly string[]): number[] {
  return values.map((value) => {
    if (!/^\d{1,15}$/.test(value)) throw badRequest(`"${value.slice(0, 40)}" is not an entry id`);
    return Number(value);
  });
}
