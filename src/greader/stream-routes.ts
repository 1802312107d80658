import type { Context } from 'hono';
import { readRequestParams } from '../auth/request.js';
import { appFeeds } from '../reading/app-feeds.js';
import { changeEntries, type EntryChange, markStreamRead } from '../reading/entry-state.js';
import type { ServerDeps } from '../server/deps.js';
import { feedStreamId, labelStreamId, parseItemId, parseStreamId, READING_LIST } from './ids.js';
import { itemJson } from './items.js';
import { MAX_IDS, MAX_ITEMS, streamFilter, streamQuery, timeParam } from './streams.js';

const CONTENTS_PATH = '/stream/contents/';

/** GET stream/items/ids: `{"itemRefs": [{"id": "<decimal>", ...}], "continuation": "<string>"}`. */
export async function itemIds(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const { query, count } = await streamQuery(deps.store, params, undefined, MAX_IDS);
  const keys = await deps.store.syncKeys(query);
  const page = keys.slice(0, count);
  const itemRefs = page.map((key) => ({
    id: String(key.id),
    directStreamIds: [],
    timestampUsec: String(Date.parse(key.firstSeenAt) * 1000),
  }));
  return c.json({ itemRefs, ...continuation(page, keys.length > count) });
}

/** A continuation, a string as the apps expect (some fail on a number), when more entries remain. */
function continuation(page: { id: number }[], hasMore: boolean): { continuation?: string } {
  const last = page.at(-1);
  return hasMore && last ? { continuation: String(last.id) } : {};
}

/** GET stream/contents[/<stream id>]: the items of a stream, newest first unless r=o. */
export async function streamContents(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const path = new URL(c.req.url).pathname;
  const at = path.indexOf(CONTENTS_PATH);
  const pathStream = at >= 0 ? safeDecode(path.slice(at + CONTENTS_PATH.length)) : undefined;
  const { streamId, query, count } = await streamQuery(
    deps.store,
    params,
    pathStream || undefined,
    MAX_ITEMS,
  );
  const keys = await deps.store.syncKeys(query);
  const page = keys.slice(0, count);
  const [entries, view] = await Promise.all([
    deps.store.syncEntries(page.map((key) => key.id)),
    appFeeds(deps.store),
  ]);
  return c.json({
    direction: 'ltr',
    id: streamId,
    title: streamId,
    updated: Math.floor(deps.now().getTime() / 1000),
    items: entries.map((entry) => itemJson(entry, view.foldersOf)),
    ...continuation(page, keys.length > count),
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** POST stream/items/contents with `i` (any number, any id form): those items, in the order asked. */
export async function itemsContents(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const ids = itemIdsOf(params.all('i')).slice(0, MAX_ITEMS);
  const [entries, view] = await Promise.all([deps.store.syncEntries(ids), appFeeds(deps.store)]);
  return c.json({
    direction: 'ltr',
    id: READING_LIST,
    updated: Math.floor(deps.now().getTime() / 1000),
    items: entries.map((entry) => itemJson(entry, view.foldersOf)),
  });
}

function itemIdsOf(values: readonly string[]): number[] {
  return values.map(parseItemId).filter((id): id is number => id !== undefined);
}

const ADDED: Record<string, EntryChange> = { read: 'read', starred: 'save', 'kept-unread': 'unread' };
const REMOVED: Record<string, EntryChange> = { read: 'unread', starred: 'unsave' };

/** POST edit-tag: `i` items, `a` states to add, `r` states to remove (read, starred, kept-unread). */
export async function editTag(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const ids = itemIdsOf(params.all('i'));
  const changes = [
    ...params.all('a').map((tag) => changeFor(tag, ADDED)),
    ...params.all('r').map((tag) => changeFor(tag, REMOVED)),
  ];
  for (const change of changes) if (change) await changeEntries(deps.store, ids, change, deps.now());
  return c.text('OK');
}

function changeFor(tag: string, table: Record<string, EntryChange>): EntryChange | undefined {
  const ref = parseStreamId(tag);
  return ref.kind === 'state' ? table[ref.state] : undefined;
}

/** POST mark-all-as-read: `s` a stream, `ts` the newest crawl time the app saw (microseconds). */
export async function markAllAsRead(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const filter = await streamFilter(deps.store, params.one('s') ?? READING_LIST);
  if (filter === undefined) return c.text('greader: unknown stream', 400);
  const now = deps.now();
  const until = timeParam(params.one('ts'));
  const stream = {
    ...(filter.feedId === undefined ? {} : { feedId: filter.feedId }),
    ...(filter.channelId === undefined ? {} : { channelId: filter.channelId }),
    ...(filter.savedOnly ? { savedOnly: true } : {}),
  };
  await markStreamRead(deps.store, stream, until ? new Date(until) : now, now);
  return c.text('OK');
}

/** GET unread-count: per feed, per folder and for the reading list, with the newest crawl time of each. */
export async function unreadCount(c: Context, deps: ServerDeps): Promise<Response> {
  const [counts, view] = await Promise.all([deps.store.syncUnreadCounts(), appFeeds(deps.store)]);
  const usec = (iso: string) => String(Date.parse(iso) * 1000);
  const unreadcounts: { id: string; count: number; newestItemTimestampUsec: string }[] = [];
  const labels = new Map<string, { count: number; newest: string }>();
  let total = 0;
  let newest = '';
  for (const count of counts) {
    unreadcounts.push({
      id: feedStreamId(count.feedId),
      count: count.unread,
      newestItemTimestampUsec: usec(count.newestSeenAt),
    });
    total += count.unread;
    if (count.newestSeenAt > newest) newest = count.newestSeenAt;
    for (const folder of view.foldersOf.get(count.feedId) ?? []) {
      const label = labels.get(folder.name) ?? { count: 0, newest: '' };
      label.count += count.unread;
      if (count.newestSeenAt > label.newest) label.newest = count.newestSeenAt;
      labels.set(folder.name, label);
    }
  }
  for (const [name, label] of labels)
    unreadcounts.push({
      id: labelStreamId(name),
      count: label.count,
      newestItemTimestampUsec: usec(label.newest),
    });
  if (total > 0) unreadcounts.push({ id: READING_LIST, count: total, newestItemTimestampUsec: usec(newest) });
  return c.json({ max: Math.max(total, 1000), unreadcounts });
}
