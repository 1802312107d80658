import type { Diagnostic, StoredFeed } from '../model/index.js';
import { plural } from '../model/index.js';
import type { NewEntry } from '../store/index.js';
import type { PollDeps } from './deps.js';
import type { PreparedItem } from './prepare.js';

/**
 * Tells new, changed and unchanged entries apart with one look-up of the stored hashes. An entry
 * whose guid is unknown but whose link matches a stored entry is that entry: its feed changes guids on
 * every fetch (http/https, tracking parameters), which is flagged once, and nothing is duplicated.
 */
export async function diffEntries(
  deps: PollDeps,
  feed: StoredFeed,
  items: readonly PreparedItem[],
  diagnostics: Diagnostic[],
): Promise<{ newEntries: NewEntry[]; changedEntries: (NewEntry & { id: number })[] }> {
  const stored = await deps.store.entries.hashes(
    feed.id,
    items.map((i) => i.guid),
  );
  // a feed read for the first time has nothing stored to match links against
  const unknown =
    feed.lastSuccessAt === undefined ? [] : items.filter((i) => !stored.has(i.guid) && i.urlKey);
  const keys = unknown.map((i) => i.urlKey as string);
  const byUrl = keys.length > 0 ? await deps.store.entries.byUrlKey(feed.id, keys) : new Map();
  const newEntries: NewEntry[] = [];
  const changedEntries: (NewEntry & { id: number })[] = [];
  let unstable = 0;
  for (const item of items) {
    let match = stored.get(item.guid);
    let entry = item.entry;
    const sameLink = match === undefined && item.urlKey !== undefined ? byUrl.get(item.urlKey) : undefined;
    if (sameLink) {
      unstable++;
      match = sameLink;
      entry = { ...entry, guid: sameLink.guid };
    }
    if (match && match.contentHash === item.contentHash) continue;
    const kept = deps.hooks.onEntry
      ? await deps.hooks.onEntry(feed, entry, match ? 'changed' : 'new')
      : entry;
    if (!kept) continue;
    if (match) changedEntries.push({ ...kept, id: match.id });
    else newEntries.push(kept);
  }
  if (unstable > 0) diagnostics.push(unstableGuids(unstable, items.length));
  // stored oldest first, so that ids grow with recency (ties of sortAt break on id)
  newEntries.reverse();
  return { newEntries, changedEntries };
}

function unstableGuids(count: number, total: number): Diagnostic {
  return {
    severity: 'warning',
    code: 'entry.guid.unstable',
    message: `poll: ${count} of ${plural(total, 'entry', 'entries')} came back with a new guid but a known link; the feed changes its guids, entries are matched by link`,
  };
}
