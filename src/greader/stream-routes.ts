import type { Context } from 'hono';
import { readRequestParams } from '../http/index.js';
import {
  type AppFeeds,
  appFeeds,
  batchesWithinBudget,
  changeEntries,
  type EntryChange,
  markStreamRead,
  pageWithinBudget,
  streamJsonObject,
} from '../reading/index.js';
import type { SyncEntry } from '../store/index.js';
import type { GReaderDeps } from './deps.js';
import { feedStreamId, labelStreamId, parseItemId, parseStreamId, READING_LIST } from './ids.js';
import { itemJson } from './items.js';
import { BadRequest, shown, timeParam } from './params.js';
import { MAX_IDS, MAX_ITEMS, streamFilter, streamQuery } from './streams.js';

const CONTENTS_PATH = '/stream/contents/';

/** GET stream/items/ids: `{"itemRefs": [{"id": "<decimal>", ...}], "continuation": "<string>"}`. */
export async function itemIds(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const { query, count } = await streamQuery(deps.store, params, undefined, MAX_IDS);
  const keys = await deps.store.sync.keys(query);
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
export async function streamContents(c: Context, deps: GReaderDeps): Promise<Response> {
  const page = await streamPage(c, deps, CONTENTS_PATH);
  return c.json({
    direction: 'ltr',
    id: page.streamId,
    title: streamTitle(page),
    updated: Math.floor(deps.now().getTime() / 1000),
    items: page.entries.map((entry) => itemJson(entry, page.folders)),
    ...(page.continuation === undefined ? {} : { continuation: page.continuation }),
  });
}

/**
 * The title of a page's stream, as apps show it: a feed's title (or URL), a folder's name, a state's
 * (reading-list, starred). A feed's comes from its entries; a page without any has the stream id.
 */
export function streamTitle(page: StreamPage): string {
  const ref = parseStreamId(page.streamId);
  if (ref.kind === 'feed') {
    const feed = page.entries[0]?.feed;
    return feed ? (feed.title ?? feed.url) : page.streamId;
  }
  if (ref.kind === 'label') return ref.name;
  if (ref.kind === 'state') return ref.state;
  return page.streamId;
}

/** A page of a stream's entries (stream/contents, the Atom stream), with its continuation when more remain. */
export interface StreamPage {
  streamId: string;
  entries: SyncEntry[];
  folders: AppFeeds['foldersOf'];
  continuation?: string;
}

/**
 * The page a stream request asks for: its stream from `s` or the path after `pathPrefix`, at most `n`
 * items and at most one byte budget of them (src/reading/page-budget.ts): a page cut short by its budget
 * has a continuation, which the apps follow as for any page.
 */
export async function streamPage(c: Context, deps: GReaderDeps, pathPrefix: string): Promise<StreamPage> {
  const params = await readRequestParams(c);
  const path = new URL(c.req.url).pathname;
  const at = path.indexOf(pathPrefix);
  const pathStream = at >= 0 ? safeDecode(path.slice(at + pathPrefix.length)) : undefined;
  const { streamId, query, count } = await streamQuery(
    deps.store,
    params,
    pathStream || undefined,
    MAX_ITEMS,
  );
  const keys = await deps.store.sync.keys(query);
  const asked = keys.slice(0, count);
  const fitting = await pageWithinBudget(
    deps.store,
    asked.map((key) => key.id),
  );
  const [read, view] = await Promise.all([deps.store.sync.entries(fitting), appFeeds(deps.store)]);
  const entries = read.map((entry) => asSeen(entry, view));
  const hasMore = keys.length > count || fitting.length < asked.length;
  const last = fitting.at(-1);
  return {
    streamId,
    entries,
    folders: view.foldersOf,
    ...(hasMore && last !== undefined ? { continuation: String(last) } : {}),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * POST stream/items/contents with `i` (any number, any id form): every one of those items, in the order
 * asked (a desktop app's first sync asks for thousands). The answer is written as it is read, a byte
 * budget of entries at a time (json-stream.ts), so no number of ids makes it one string in memory.
 */
export async function itemsContents(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const ids = itemIdsOf(params.all('i'));
  const view = await appFeeds(deps.store);
  const head = { direction: 'ltr', id: READING_LIST, updated: Math.floor(deps.now().getTime() / 1000) };
  const body = streamJsonObject(head, 'items', itemsJson(deps, ids, view, c.req.path));
  return c.body(body, 200, { 'content-type': 'application/json' });
}

async function* itemsJson(
  deps: GReaderDeps,
  ids: readonly number[],
  view: AppFeeds,
  path: string,
): AsyncGenerator<string> {
  try {
    for await (const batch of batchesWithinBudget(deps.store, ids))
      for (const entry of await deps.store.sync.entries(batch))
        yield JSON.stringify(itemJson(asSeen(entry, view), view.foldersOf));
  } catch (err) {
    // the 200 is sent already: the answer ends unfinished, which the app sees as a failed call
    deps.log.error({ err, path }, 'greader: request failed while writing its answer');
    throw err;
  }
}

/**
 * The entry with its feed as the person sees it: the title they gave it (subscription/edit t=), as
 * subscription/list and Fever show it; apps print origin.title beside every item.
 */
function asSeen(entry: SyncEntry, view: AppFeeds): SyncEntry {
  const title = view.titles.get(entry.feedId);
  return title === undefined || title === entry.feed.title
    ? entry
    : { ...entry, feed: { ...entry.feed, title } };
}

function itemIdsOf(values: readonly string[]): number[] {
  const ids = values.map(parseItemId).filter((id): id is number => id !== undefined);
  return [...new Set(ids)];
}

const ADDED: Record<string, EntryChange> = { read: 'read', starred: 'save', 'kept-unread': 'unread' };
const REMOVED: Record<string, EntryChange> = { read: 'unread', starred: 'unsave' };

/** POST edit-tag: `i` items, `a` states to add, `r` states to remove (read, starred, kept-unread). */
export async function editTag(c: Context, deps: GReaderDeps): Promise<Response> {
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

/**
 * POST mark-all-as-read: `s` a stream (required: no stream is not "everything"), `ts` the newest crawl
 * time the app saw (what arrived later stays unread). Marking the read stream, or a state tidings does
 * not keep, read changes nothing; an unknown feed or folder is a 404.
 */
export async function markAllAsRead(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const streamId = params.one('s')?.trim() ?? '';
  if (streamId === '') throw new BadRequest('mark-all-as-read needs s, the stream to mark read');
  const ref = parseStreamId(streamId);
  if (ref.kind === 'unknown') throw new BadRequest(`s is not a stream id: ${shown(streamId)}`);
  const now = deps.now();
  const until = timeParam(params.one('ts'), 'ts');
  if (ref.kind === 'state' && !['reading-list', 'starred', 'kept-unread'].includes(ref.state))
    return c.text('OK');
  const filter = await streamFilter(deps.store, streamId);
  if (filter === undefined) throw new BadRequest(`no stream ${shown(streamId)}`, 404);
  const stream = {
    ...(filter.feedId === undefined ? {} : { feedId: filter.feedId }),
    ...(filter.channelId === undefined ? {} : { channelId: filter.channelId }),
    ...(filter.savedOnly ? { savedOnly: true } : {}),
  };
  await markStreamRead(deps.store, stream, until ? new Date(until) : now, now);
  return c.text('OK');
}

/** GET unread-count: per feed, per folder and for the reading list (0 too), with the newest crawl time of each. */
export async function unreadCount(c: Context, deps: GReaderDeps): Promise<Response> {
  const [counts, view] = await Promise.all([deps.store.sync.unreadCounts(), appFeeds(deps.store)]);
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
  // Every followed feed, every folder and the reading list are listed, 0 included (as FreshRSS): an app
  // that updates only the counts it is given kept the badge of a feed read elsewhere.
  const counted = new Set(counts.map((count) => count.feedId));
  for (const feed of view.feeds)
    if (view.followed.has(feed.id) && !counted.has(feed.id))
      unreadcounts.push({ id: feedStreamId(feed.id), count: 0, newestItemTimestampUsec: '0' });
  for (const folder of view.folders)
    if (!labels.has(folder.name)) labels.set(folder.name, { count: 0, newest: '' });
  for (const [name, label] of labels)
    unreadcounts.push({
      id: labelStreamId(name),
      count: label.count,
      newestItemTimestampUsec: label.newest ? usec(label.newest) : '0',
    });
  unreadcounts.push({ id: READING_LIST, count: total, newestItemTimestampUsec: newest ? usec(newest) : '0' });
  return c.json({ max: Math.max(total, 1000), unreadcounts });
}
