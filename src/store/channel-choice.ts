import type { Channel } from '../model/stored.js';
import type { Store } from './store.js';

/**
 * The channel a follow or an import goes to: one named (found by name or uid, created when new), else
 * the first one after notifications, else a new "Home".
 */
export async function channelNamed(store: Store, name?: string): Promise<Channel> {
  const channels = await store.listChannels();
  const wanted = name?.trim();
  if (wanted) {
    const known = channels.find((ch) => ch.uid === wanted || ch.name.toLowerCase() === wanted.toLowerCase());
    return known ?? store.createChannel(wanted);
  }
  return channels.find((ch) => ch.uid !== 'notifications') ?? store.createChannel('Home');
}

/** Channels for a picker: the usual ones first, notifications last. */
export function pickerOrder(channels: readonly Channel[]): Channel[] {
  return [...channels].sort((a, b) => rank(a) - rank(b) || a.position - b.position);
}

function rank(channel: Channel): number {
  return channel.uid === 'notifications' ? 1 : 0;
}
