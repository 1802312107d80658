import type { RequestParams } from '../auth/request.js';
import type { Store } from '../store/store.js';
import type { SyncFilter, SyncQuery } from '../store/sync-types.js';
import { parseStreamId, READING_LIST, stateFilter } from './ids.js';

// A stream request (stream/items/ids, stream/contents) as a sync query. The stream comes from `s` or
// from the path after stream/contents/; `xt` excludes a state and `it` includes one (Read You asks for
// read ids with s=reading-list&it=read, others with s=read: both must give the read entries, never the
// unread ones: FreshRSS once ignored it and apps then marked whole accounts read). `ot` and `nt` are
// crawl times in seconds, `r=o` asks oldest first, `c` is the continuation we wrote.

/** The most ids one stream/items/ids call returns, and the most items one stream/contents call returns. */
export const MAX_IDS = 10_000;
export const MAX_ITEMS = 1_000;
const DEFAULT_COUNT = 20;

/** A stream id that names nothing here gives an empty stream (no entry has id -1). */
const NOTHING: SyncFilter = { ids: [] };

/** The entries a stream id selects; undefined when it names nothing here. */
export async function streamFilter(store: Store, streamId: string): Promise<SyncFilter | undefined> {
  const ref = parseStreamId(streamId);
  if (ref.kind === 'state') return stateFilter(ref.state);
  if (ref.kind === 'label') {
    const channel = (await store.listChannels()).find(
      (ch) => ch.name === ref.name && ch.uid !== 'notifications',
    );
    return channel ? { channelId: channel.id } : undefined;
  }
  if (ref.kind === 'feed') {
    const feed =
      ref.id !== undefined ? await store.getFeed(ref.id) : await store.findFeedByUrl(ref.url ?? '');
    return feed ? { feedId: feed.id } : undefined;
  }
  return undefined;
}

/** Two conditions at once; conflicting read states select nothing. */
function both(a: SyncFilter, b: SyncFilter): SyncFilter {
  if (a.readState && b.readState && a.readState !== b.readState) return NOTHING;
  return { ...a, ...b, readState: a.readState ?? b.readState, savedOnly: a.savedOnly || b.savedOnly };
}

/** Seconds (or, from some apps, milliseconds or microseconds) as an ISO time; undefined when not a number. */
export function timeParam(value: string | undefined): string | undefined {
  if (value === undefined || !/^\d{1,19}$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  const ms = n > 1e14 ? n / 1000 : n > 1e11 ? n : n * 1000;
  return new Date(Math.floor(ms)).toISOString();
}

/** The query a stream request asks for, with the id of its stream; one more than `n` is asked for. */
export async function streamQuery(
  store: Store,
  params: RequestParams,
  pathStream: string | undefined,
  maxCount: number,
): Promise<{ streamId: string; query: SyncQuery; count: number }> {
  const streamId = params.one('s') ?? pathStream ?? READING_LIST;
  let filter = (await streamFilter(store, streamId)) ?? NOTHING;
  const exclude = params.one('xt');
  if (exclude !== undefined) {
    const ref = parseStreamId(exclude);
    if (ref.kind === 'state' && ref.state === 'read') filter = both(filter, { readState: 'unread' });
    if (ref.kind === 'state' && ref.state === 'kept-unread') filter = both(filter, { readState: 'read' });
  }
  for (const include of params.all('it')) {
    const ref = parseStreamId(include);
    const more = ref.kind === 'state' ? stateFilter(ref.state) : undefined;
    if (more) filter = both(filter, more);
  }
  const countText = params.one('n');
  const asked = countText !== undefined && /^\d{1,9}$/.test(countText) ? Number(countText) : DEFAULT_COUNT;
  const count = Math.min(Math.max(asked, 1), maxCount);
  const oldestFirst = params.one('r') === 'o';
  const continuation = params.one('c');
  const after =
    continuation !== undefined && /^\d{1,15}$/.test(continuation) ? Number(continuation) : undefined;
  const query: SyncQuery = {
    ...filter,
    seenFrom: timeParam(params.one('ot')),
    seenUntil: timeParam(params.one('nt')),
    oldestFirst,
    limit: count + 1,
    ...(after === undefined ? {} : oldestFirst ? { idAbove: after } : { idBelow: after }),
  };
  return { streamId, query, count };
}
