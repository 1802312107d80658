import type { RequestParams } from '../http/index.js';
import { safeLinkUrl } from '../model/index.js';
import type { AppFeeds } from '../reading/index.js';
import { batchesWithinBudget, pageWithinBudget } from '../reading/index.js';
import type { Store, SyncEntry, SyncFilter } from '../store/index.js';
import { integerOf, integerParam, singleParam } from './params.js';

// The read side of the Fever API (https://feedafever.com/api, as archived): groups, feeds, items.
// Integers where the spec says integers: ids, is_read, is_saved, times (Unix seconds). FreshRSS sends
// ids as strings, which some apps refuse; the id lists (unread_item_ids, saved_item_ids, feed_ids) are
// comma-separated strings, as the spec says. URLs follow the URL policy of every output
// (model/safe-url.ts): one that is not absolute http(s) is an empty string; `html` was sanitized when it
// was stored, by the rules the web UI shows it with.

/** At most this many items per `items` call (the spec's 50). */
export const ITEMS_PER_CALL = 50;

/** Unix seconds of an ISO time; 0 for none. */
export function unixSeconds(iso: string | undefined): number {
  if (iso === undefined) return 0;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** `groups` and `feeds_groups`: channels as groups. */
export function groupsOf(view: AppFeeds): { groups: object[]; feeds_groups: object[] } {
  const groups = view.folders.map((folder) => ({ id: folder.id, title: folder.name }));
  const feeds_groups = view.folders.map((folder) => ({
    group_id: folder.id,
    feed_ids: view.feeds
      .filter((feed) => view.foldersOf.get(feed.id)?.some((f) => f.id === folder.id))
      .map((feed) => feed.id)
      .join(','),
  }));
  // Every feed of `feeds` is in a group: Read You looks each one up in feeds_groups and its whole sync
  // fails on one that is in none (a feed unfollowed that keeps saved entries, one followed only in
  // Notifications). Those are listed in a group of their own.
  const ungrouped = view.feeds.filter((feed) => (view.foldersOf.get(feed.id) ?? []).length === 0);
  if (ungrouped.length > 0) {
    groups.push({ id: UNGROUPED_ID, title: UNGROUPED_TITLE });
    feeds_groups.push({ group_id: UNGROUPED_ID, feed_ids: ungrouped.map((feed) => feed.id).join(',') });
  }
  return { groups, feeds_groups };
}

/**
 * The group of feeds in no channel: an id no channel has (the largest 32-bit integer, which apps that
 * keep ids in 32 bits can hold). Marking it read marks nothing, as for a group that does not exist.
 */
export const UNGROUPED_ID = 2_147_483_647;
const UNGROUPED_TITLE = 'Not in a channel';

/** `feeds`: every feed the apps see; favicon_id is the feed's own id when it has an icon, else 0. */
export function feedsOf(view: AppFeeds, withIcons: ReadonlySet<number>): object[] {
  return view.feeds.map((feed) => ({
    id: feed.id,
    favicon_id: withIcons.has(feed.id) ? feed.id : 0,
    title: feed.title ?? feed.url,
    url: safeLinkUrl(feed.url) ?? '',
    site_url: safeLinkUrl(feed.siteUrl) ?? '',
    is_spark: 0,
    last_updated_on_time: unixSeconds(feed.lastSuccessAt ?? feed.lastCheckedAt),
  }));
}

/** The ids of a comma-separated list (with_ids), at most `limit` of them; parts that are no id are left out. */
export function idList(value: string | undefined, limit: number): number[] {
  return (value ?? '')
    .split(',')
    .map((part) => integerOf(part.trim()))
    .filter((id): id is number => id !== undefined && id > 0)
    .slice(0, limit);
}

/** The items of an answer, each item's JSON made as the answer is written (routes.ts streams them). */
export class StreamedItems {
  constructor(readonly json: AsyncIterable<string>) {}
}

/**
 * `items`: `with_ids` (at most 50), `since_id` (the 50 next ids above it, ascending), `max_id` (the 50
 * ids below it, newest first; 0 or nothing: from the newest, as apps that start paging at max_id=0 expect).
 * A page by since_id or max_id ends early when its byte budget is spent (src/reading/page-budget.ts): the
 * app asks on from the last id it got. with_ids gives every item asked, written a budget at a time.
 */
export async function itemsOf(store: Store, params: RequestParams): Promise<object> {
  const filter: SyncFilter = {};
  const ids = await pageIds(store, params);
  const sent = params.has('with_ids') ? ids : await pageWithinBudget(store, ids);
  return { items: new StreamedItems(itemsJson(store, sent)), total_items: await store.sync.count(filter) };
}

async function* itemsJson(store: Store, ids: readonly number[]): AsyncGenerator<string> {
  for await (const batch of batchesWithinBudget(store, ids))
    for (const entry of await store.sync.entries(batch)) yield JSON.stringify(itemOf(entry));
}

/**
 * The ids of the page asked for. A since_id, max_id or with_ids that is not what it should be (not an
 * integer, given twice) gives none: read as absent, it would give the newest items. An empty since_id is
 * since_id=0, the oldest items first.
 */
async function pageIds(store: Store, params: RequestParams): Promise<number[]> {
  // an empty since_id is the start: Read You's first sync sends `since_id=` and pages on from the last
  // id it got, as FreshRSS lets it (answered with nothing, it never got an item)
  const sinceId = singleParam(params, 'since_id') === '' ? 0 : integerParam(params, 'since_id');
  const maxId = integerParam(params, 'max_id');
  const withIds = singleParam(params, 'with_ids');
  const malformed =
    (params.has('since_id') && sinceId === undefined) ||
    (params.has('max_id') && maxId === undefined) ||
    (params.has('with_ids') && withIds === undefined);
  if (malformed) return [];
  const query =
    withIds !== undefined
      ? { ids: idList(withIds, ITEMS_PER_CALL), oldestFirst: true }
      : sinceId !== undefined
        ? { idAbove: sinceId, oldestFirst: true }
        : { idBelow: maxId !== undefined && maxId > 0 ? maxId : undefined, oldestFirst: false };
  const keys = await store.sync.keys({ ...query, limit: ITEMS_PER_CALL });
  return keys.map((key) => key.id);
}

function itemOf(entry: SyncEntry): object {
  return {
    id: entry.id,
    feed_id: entry.feedId,
    title: entry.title ?? '',
    author: entry.authors[0]?.name ?? '',
    html: entry.contentHtml ?? entry.summary ?? '',
    url: safeLinkUrl(entry.url) ?? '',
    is_saved: entry.isSaved ? 1 : 0,
    is_read: entry.isRead ? 1 : 0,
    created_on_time: unixSeconds(entry.published ?? entry.sortAt),
  };
}
