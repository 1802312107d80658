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
  given: readonly PreparedItem[],
  diagnostics: Diagnostic[],
): Promise<{ newEntries: NewEntry[]; changedEntries: (NewEntry & { id: number })[] }> {
  const sharing = given.filter((i) => i.shared !== undefined);
  // A feed read for the first time has nothing stored: every poll and push that stores entries sets
  // lastSuccessAt in the same transaction. So its first poll reads nothing (issue 22: a first round read
  // each new feed's guids, one statement a feed); a guid stored meanwhile by another process is skipped
  // when the entries are written.
  const firstRead = feed.lastSuccessAt === undefined;
  const stored = firstRead
    ? new Map<string, { id: number; contentHash: string }>()
    : await deps.store.entries.hashes(feed.id, [
        ...given.map((i) => i.guid),
        ...sharing.map((i) =>
          i.shared?.base === i.guid ? (i.shared?.own as string) : (i.shared?.base as string),
        ),
      ]);
  const items = sharing.length > 0 ? settleSharedGuids(given, stored) : given;
  const unknown = firstRead ? [] : items.filter((i) => !stored.has(i.guid) && i.urlKey);
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

/**
 * Which entry of those sharing a guid has the bare guid: the one whose content is stored under it, else
 * the first that has no row of its own (the guid plus its hash); the others have their own. By order
 * alone, two entries that swapped places swapped rows: one was overwritten with the other (issue 22's
 * probe found the first one's entry lost).
 */
function settleSharedGuids(
  items: readonly PreparedItem[],
  stored: ReadonlyMap<string, { contentHash: string }>,
): PreparedItem[] {
  const groups = new Map<string, PreparedItem[]>();
  for (const item of items)
    if (item.shared) groups.set(item.shared.base, [...(groups.get(item.shared.base) ?? []), item]);
  const guidOf = new Map<PreparedItem, string>();
  for (const [base, members] of groups) {
    const bare = stored.get(base);
    const owner =
      members.find((m) => bare?.contentHash === m.contentHash && !stored.has(m.shared?.own as string)) ??
      members.find((m) => !stored.has(m.shared?.own as string)) ??
      members[0];
    for (const m of members) guidOf.set(m, m === owner ? base : (m.shared?.own as string));
  }
  return items.map((item) => {
    const guid = guidOf.get(item);
    return guid === undefined || guid === item.guid
      ? item
      : { ...item, guid, entry: { ...item.entry, guid } };
  });
}

function unstableGuids(count: number, total: number): Diagnostic {
  return {
    severity: 'warning',
    code: 'entry.guid.unstable',
    message: `poll: ${count} of ${plural(total, 'entry', 'entries')} came back with a new guid but a known link; the feed changes its guids, entries are matched by link`,
  };
}
