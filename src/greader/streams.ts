import type { RequestParams } from '../http/index.js';
import type { StoredFeed } from '../model/index.js';
import type { Store, SyncFilter, SyncQuery } from '../store/index.js';
import { parseStreamId, READING_LIST, type StreamRef, stateFilter } from './ids.js';
import { BadRequest, continuationParam, countParam, isOldestFirst, shown, timeParam } from './params.js';

// A stream request (stream/items/ids, stream/contents, the Atom stream) as a sync query. The stream comes
// from `s` or from the path; `xt` excludes a state and `it` includes one (Read You asks for read ids with
// s=reading-list&it=read, others with s=read: both must give the read entries, never the unread ones:
// FreshRSS once ignored it and apps then marked whole accounts read). `ot` and `nt` are crawl times,
// `r=o` asks oldest first, `c` is the continuation we wrote. What is malformed is a 400 (params.ts);
// a well-formed stream that names nothing here is empty.

/** The most ids one stream/items/ids call returns, and the most items one stream/contents call returns. */
export const MAX_IDS = 10_000;
export const MAX_ITEMS = 1_000;
const DEFAULT_COUNT = 20;

/** A stream id that names nothing here gives an empty stream (no entry has id -1). */
const NOTHING: SyncFilter = { ids: [] };

/** The folder (channel) an app's label names: Microsub's notifications channel is no folder of theirs. */
export async function folderNamed(store: Store, name: string) {
  return (await store.channels.list()).find((ch) => ch.name === name && ch.uid !== 'notifications');
}

/** The entries a stream id selects; undefined when it names nothing here. */
export async function streamFilter(store: Store, streamId: string): Promise<SyncFilter | undefined> {
  return refFilter(store, parseStreamId(streamId));
}

async function refFilter(store: Store, ref: StreamRef): Promise<SyncFilter | undefined> {
  if (ref.kind === 'state') return stateFilter(ref.state);
  if (ref.kind === 'label') {
    const channel = await folderNamed(store, ref.name);
    return channel ? { channelId: channel.id } : undefined;
  }
  if (ref.kind === 'feed') {
    const feed = await ownFeed(store, ref);
    return feed ? { feedId: feed.id } : undefined;
  }
  return undefined;
}

/**
 * The feed a `feed/<id>` or `feed/<url>` stream names, when it is one of the user's: followed, or kept
 * for entries they saved (as subscription/list and Fever's feeds show them). Feeds are the instance's,
 * so one only other users follow is answered as one that does not exist: ids cannot be probed.
 */
export async function ownFeed(
  store: Store,
  ref: { id?: number; url?: string },
): Promise<StoredFeed | undefined> {
  const feed =
    ref.id !== undefined ? await store.feeds.get(ref.id) : await store.feeds.findByUrl(ref.url ?? '');
  if (feed === undefined) return undefined;
  if ((await store.channels.follows(feed.id)) !== undefined) return feed;
  const saved = await store.sync.count({ feedId: feed.id, savedOnly: true });
  return saved > 0 ? feed : undefined;
}

/** The feed a stream names when the user follows it (subscription/edit changes only those). */
export async function followedFeed(
  store: Store,
  ref: { id?: number; url?: string },
): Promise<StoredFeed | undefined> {
  const feed =
    ref.id !== undefined ? await store.feeds.get(ref.id) : await store.feeds.findByUrl(ref.url ?? '');
  return feed !== undefined && (await store.channels.follows(feed.id)) !== undefined ? feed : undefined;
}

/** Two conditions at once; conflicting read states select nothing. */
function both(a: SyncFilter, b: SyncFilter): SyncFilter {
  if (a.readState && b.readState && a.readState !== b.readState) return NOTHING;
  return { ...a, ...b, readState: a.readState ?? b.readState, savedOnly: a.savedOnly || b.savedOnly };
}

/**
 * `xt`, each value a stream to leave out: read, kept-unread and unread (tidings' kept-unread is the
 * unread entries; FreshRSS serves `unread` too), starred, reading-list (everything). A state tidings does not keep (broadcast, fresh ...) holds no
 * entry, so leaving it out changes nothing; leaving out a folder or a feed is not supported.
 */
function excluding(filter: SyncFilter, value: string): SyncFilter {
  const ref = parseStreamId(value);
  if (ref.kind === 'unknown') throw new BadRequest(`xt is not a stream id: ${shown(value)}`);
  if (ref.kind !== 'state')
    throw new BadRequest(`xt=${shown(value)} is not supported: only states such as read`);
  if (ref.state === 'starred') return { ...filter, unsavedOnly: true };
  if (ref.state === 'read') return both(filter, { readState: 'unread' });
  if (ref.state === 'kept-unread' || ref.state === 'unread') return both(filter, { readState: 'read' });
  if (ref.state === 'reading-list') return NOTHING;
  return filter;
}

/** `it`, each value a state the entries must also be in (read, starred, kept-unread, reading-list). */
function including(filter: SyncFilter, value: string): SyncFilter {
  const ref = parseStreamId(value);
  if (ref.kind === 'unknown') throw new BadRequest(`it is not a stream id: ${shown(value)}`);
  if (ref.kind !== 'state') throw new BadRequest(`it=${shown(value)} is not supported: only states`);
  const more = stateFilter(ref.state);
  return more ? both(filter, more) : NOTHING;
}

/** The query a stream request asks for, with the id of its stream; one more than `n` is asked for. */
export async function streamQuery(
  store: Store,
  params: RequestParams,
  pathStream: string | undefined,
  maxCount: number,
): Promise<{ streamId: string; query: SyncQuery; count: number }> {
  const streamId = params.one('s')?.trim() || pathStream || READING_LIST;
  let filter = (await streamFilter(store, streamId)) ?? NOTHING;
  for (const value of params.all('xt')) if (value.trim() !== '') filter = excluding(filter, value.trim());
  for (const value of params.all('it')) if (value.trim() !== '') filter = including(filter, value.trim());
  const count = countParam(params.one('n'), DEFAULT_COUNT, maxCount);
  const oldestFirst = isOldestFirst(params.one('r'));
  const after = continuationParam(params.one('c'));
  const query: SyncQuery = {
    ...filter,
    seenFrom: timeParam(params.one('ot'), 'ot'),
    seenUntil: timeParam(params.one('nt'), 'nt'),
    oldestFirst,
    limit: count + 1,
    ...(after === undefined ? {} : oldestFirst ? { idAbove: after } : { idBelow: after }),
  };
  return { streamId, query, count };
}
