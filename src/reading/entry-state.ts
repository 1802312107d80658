import type { Store, SyncFilter } from '../store/index.js';

// "Mark read", "mark unread", "star" and "unstar", decided once for every front end (issue 15).
// Read state is stored per channel and entry (entry_states). The apps (Google Reader, Fever) have no
// channels, so for them: an entry is unread when at least one channel that follows its feed shows it
// unread, and marking it read or unread applies to every channel that follows its feed. Saved
// (starred) is one state per entry. The web UI and Microsub mark read per channel (mark.ts, open.ts);
// what they do is seen by the apps at once through the rule above, and the other way round.

/** What a front end asks to do with entries. */
export type EntryChange = 'read' | 'unread' | 'save' | 'unsave';

/** Applies a change to the entries with these ids; unknown ids are ignored. */
export async function changeEntries(
  store: Store,
  entryIds: readonly number[],
  change: EntryChange,
  now: Date,
): Promise<void> {
  if (entryIds.length === 0) return;
  const at = now.toISOString();
  if (change === 'save' || change === 'unsave') return store.sync.setSaved(entryIds, change === 'save', at);
  return store.sync.setReadEverywhere({ ids: entryIds }, change === 'read', at);
}

/**
 * Marks read every entry of a stream (a feed, a channel, everything) first seen at or before `until`:
 * entries that arrived after the app last looked stay unread (Google Reader's `ts`, Fever's `before`).
 */
export async function markStreamRead(
  store: Store,
  stream: Pick<SyncFilter, 'feedId' | 'channelId' | 'savedOnly'>,
  until: Date,
  now: Date,
): Promise<void> {
  await store.sync.setReadEverywhere(
    { ...stream, readState: 'unread', seenUntil: until.toISOString() },
    true,
    now.toISOString(),
  );
}

/**
 * Saves (or unsaves) one of the store's user's entries, as the web UI's button does; false when the user
 * has no such entry (none of their channels follows its feed and they did not save it: another user's
 * entry is as good as missing). Saved is one state per user and entry, whatever the channel (a saved
 * entry's feed may be followed by none).
 */
export async function saveEntry(store: Store, entryId: number, saved: boolean, now: Date): Promise<boolean> {
  if ((await store.sync.entries([entryId])).length === 0) return false;
  await changeEntries(store, [entryId], saved ? 'save' : 'unsave', now);
  return true;
}
