import type { Channel } from '../model/index.js';
import type { ReadingDeps } from './deps.js';

// What the web UI and Microsub do to entries of one channel. The apps (Google Reader, Fever) have no
// channels: they mark read everywhere (entry-state.ts), and the two meet in the one read state.

type Deps = Pick<ReadingDeps, 'store' | 'now'>;

/** Marks these entries read (or unread) in a channel. */
export async function markInChannel(
  deps: Deps,
  channel: Channel,
  entryIds: readonly number[],
  read: boolean,
): Promise<void> {
  await deps.store.reading.markRead(channel.id, entryIds, read, deps.now().toISOString());
}

/**
 * Marks an entry and every older entry of the channel read (Microsub's `last_read_entry`, Monocle's
 * "mark all read"). For an undoable mark-all (the web's), see markAllRead.
 */
export async function markReadUpTo(deps: Deps, channel: Channel, entryId: number): Promise<void> {
  await deps.store.reading.markReadUpTo(channel.id, entryId, deps.now().toISOString());
}

/** Takes entries out of a channel's timeline (they stay in the other channels). */
export async function removeFromChannel(
  deps: Deps,
  channel: Channel,
  entryIds: readonly number[],
): Promise<void> {
  await deps.store.reading.removeEntries(channel.id, entryIds, deps.now().toISOString());
}

/**
 * The ids among these that are entries of the channel, in the order given: those it shows (of a feed it
 * follows, or put there by a rule or an alert: the notifications channel); marking an entry of another
 * channel is no change a client of this channel asked for. Unknown ids are left out (a client may hold
 * entries removed meanwhile).
 */
export async function entriesOfChannel(
  deps: Pick<ReadingDeps, 'store'>,
  channel: Channel,
  entryIds: readonly number[],
): Promise<number[]> {
  const found = await deps.store.reading.entriesById(channel.id, entryIds);
  const known = new Set(found.map((e) => e.id));
  return entryIds.filter((id) => known.has(id));
}
