import type { Diagnostic } from '../model/diagnostic.js';
import type { ParseResult } from '../model/parse-result.js';
import type { StoredFeed } from '../model/stored.js';
import type { NewEntry } from '../store/store.js';
import type { PollDeps } from './deps.js';
import { identifyEntries, type ParsedItem, toNewEntry } from './entries.js';

/**
 * Tells new, changed and unchanged entries apart with one look-up of the stored hashes. An entry
 * whose guid is unknown but whose link matches a stored entry is that entry: its feed changes guids on
 * every fetch (http/https, tracking parameters), which is flagged once, and nothing is duplicated.
 */
export async function diffEntries(
  deps: PollDeps,
  feed: StoredFeed,
  result: ParseResult,
  now: Date,
  diagnostics: Diagnostic[],
): Promise<{ newEntries: NewEntry[]; changedEntries: (NewEntry & { id: number })[] }> {
  const items = identifyEntries(result.entries, diagnostics);
  const stored = await deps.store.entryHashes(
    feed.id,
    items.map((i) => i.guid),
  );
  // a feed read for the first time has nothing stored to match links against
  const unknown =
    feed.lastSuccessAt === undefined
      ? []
      : items.filter((i) => !stored.has(i.guid) && i.urlKey !== undefined);
  const byUrl =
    unknown.length > 0
      ? await deps.store.entriesByUrlKey(
          feed.id,
          unknown.map((i) => i.urlKey as string),
        )
      : new Map();
  const newEntries: NewEntry[] = [];
  const changedEntries: (NewEntry & { id: number })[] = [];
  let unstable = 0;
  for (const item of items) {
    let match = stored.get(item.guid);
    const sameLink = match === undefined && item.urlKey !== undefined ? byUrl.get(item.urlKey) : undefined;
    if (sameLink) {
      unstable++;
      match = sameLink;
      item.guid = sameLink.guid;
    }
    if (match && match.contentHash === item.contentHash) continue;
    const arrival = feed.lastSuccessAt !== undefined;
    const entry = await passHook(
      deps,
      feed,
      toNewEntry(item, now, diagnostics, arrival),
      match ? 'changed' : 'new',
    );
    if (!entry) continue;
    if (match) changedEntries.push({ ...entry, id: match.id });
    else newEntries.push(entry);
  }
  if (unstable > 0) diagnostics.push(unstableGuids(unstable, items));
  // stored oldest first, so that ids grow with recency (ties of sortAt break on id)
  newEntries.reverse();
  return { newEntries, changedEntries };
}

async function passHook(
  deps: PollDeps,
  feed: StoredFeed,
  entry: NewEntry,
  change: 'new' | 'changed',
): Promise<NewEntry | null> {
  return deps.hooks.onEntry ? deps.hooks.onEntry(feed, entry, change) : entry;
}

function unstableGuids(count: number, items: ParsedItem[]): Diagnostic {
  return {
    severity: 'warning',
    code: 'entry.guid.unstable',
    message: `poll: ${count} of ${items.length} entries came back with a new guid but a known link; the feed changes its guids, entries are matched by link`,
  };
}
