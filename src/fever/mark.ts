import type { RequestParams } from '../auth/request.js';
import { changeEntries, type EntryChange, markStreamRead } from '../reading/entry-state.js';
import type { Store } from '../store/store.js';

const ITEM_CHANGES: Record<string, EntryChange> = {
  read: 'read',
  unread: 'unread',
  saved: 'save',
  unsaved: 'unsave',
};

/**
 * `mark=item&as=read|unread|saved|unsaved&id=N`; `mark=feed|group&as=read&id=N&before=T` marks read what
 * was first seen at or before T (Unix seconds): entries that came after the app last refreshed stay
 * unread. Group 0 is every feed (Fever's "Kindling"); -1 (Sparks) is none here. What the request gets
 * wrong (an unknown `as`, a missing id) changes nothing: Fever answers 200 whatever happens.
 */
export async function applyMark(store: Store, params: RequestParams, now: Date): Promise<void> {
  const mark = params.one('mark');
  const as = params.one('as') ?? '';
  const id = Number(params.one('id') ?? 'NaN');
  if (!Number.isSafeInteger(id)) return;
  if (mark === 'item') {
    const change = ITEM_CHANGES[as];
    if (change !== undefined && id > 0) await changeEntries(store, [id], change, now);
    return;
  }
  if (as !== 'read' || (mark !== 'feed' && mark !== 'group')) return;
  const before = Number(params.one('before') ?? 'NaN');
  // no `before`: up to now, as Fever's own server did
  const until = Number.isFinite(before) && before > 0 ? new Date(before * 1000) : now;
  if (mark === 'feed' && id > 0) await markStreamRead(store, { feedId: id }, until, now);
  if (mark === 'group' && id > 0) await markStreamRead(store, { channelId: id }, until, now);
  if (mark === 'group' && id === 0) await markStreamRead(store, {}, until, now);
}
