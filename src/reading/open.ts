import type { Channel } from '../model/index.js';
import type { SyncEntry, TimelineEntry } from '../store/index.js';
import { channelsActingFor } from './channel-of-feed.js';
import type { ReadingDeps } from './deps.js';
import { changeEntries } from './entry-state.js';

// Opening an entry marks it read, in every front end: in the channel it was opened from, or, opened
// from a view across channels (All unread, Saved), in every channel that follows its feed.

/** An entry of a channel, opened there and marked read; undefined when the channel has no such entry. */
export async function openInChannel(
  deps: Pick<ReadingDeps, 'store' | 'now'>,
  channel: Channel,
  entryId: number,
): Promise<TimelineEntry | undefined> {
  const [entry] = await deps.store.reading.entriesById(channel.id, [entryId]);
  return entry && markOpened(deps, channel, entry);
}

/** Marks an entry of a channel, found already, read there as opening it does; returns it read. */
export async function markOpened(
  deps: Pick<ReadingDeps, 'store' | 'now'>,
  channel: Channel,
  entry: TimelineEntry,
): Promise<TimelineEntry> {
  if (!entry.isRead)
    await deps.store.reading.markRead(channel.id, [entry.id], true, deps.now().toISOString());
  return { ...entry, isRead: true };
}

/**
 * An entry opened from All unread: it acts in the first channel that follows its feed, and is marked read
 * in all of them. Undefined when no channel follows its feed (or there is no such entry).
 */
export async function openAnywhere(
  deps: Pick<ReadingDeps, 'store' | 'now'>,
  entryId: number,
): Promise<{ entry: TimelineEntry; channel: Channel } | undefined> {
  const { store } = deps;
  const stored = await store.entries.get(entryId);
  if (!stored) return undefined;
  const channel = (await channelsActingFor(store, [stored.feedId])).get(stored.feedId);
  const [entry] = channel ? await store.reading.entriesById(channel.id, [entryId]) : [];
  if (!channel || !entry) return undefined;
  await changeEntries(store, [entry.id], 'read', deps.now());
  return { entry: { ...entry, isRead: true }, channel };
}

/**
 * An entry opened as the apps see it (Saved: its feed may be followed by no channel), marked read in
 * every channel that follows its feed; undefined when there is no such entry.
 */
export async function openSaved(
  deps: Pick<ReadingDeps, 'store' | 'now'>,
  entryId: number,
): Promise<SyncEntry | undefined> {
  const [entry] = await deps.store.sync.entries([entryId]);
  if (!entry) return undefined;
  if (!entry.isRead) await changeEntries(deps.store, [entry.id], 'read', deps.now());
  return { ...entry, isRead: true };
}
