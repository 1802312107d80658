import type { Channel } from '../../model/index.js';

/** Channels for a picker: the usual ones first, notifications last. */
export function pickerOrder(channels: readonly Channel[]): Channel[] {
  return [...channels].sort((a, b) => rank(a) - rank(b) || a.position - b.position);
}

function rank(channel: Channel): number {
  return channel.uid === 'notifications' ? 1 : 0;
}
