import type { RequestParams } from '../http/index.js';
import { changeEntries, type EntryChange, markStreamRead } from '../reading/index.js';
import type { Store } from '../store/index.js';
import { integerParam, singleParam } from './params.js';

const ITEM_CHANGES: Record<string, EntryChange> = {
  read: 'read',
  unread: 'unread',
  saved: 'save',
  unsaved: 'unsave',
};

/** What `mark` marks, with the `as` values each takes (the isolation test walks them all). */
export const FEVER_MARKS: Readonly<Record<string, readonly string[]>> = {
  item: Object.keys(ITEM_CHANGES),
  feed: ['read'],
  group: ['read'],
};

/**
 * `mark=item&as=read|unread|saved|unsaved&id=N`; `mark=feed|group&as=read&id=N&before=T` marks read what
 * was first seen at or before T (Unix seconds): entries that came after the app last refreshed stay
 * unread. Group 0 is every feed (Fever's "Kindling"), named by exactly `0`; -1 (Sparks) is none here.
 * What the request gets wrong (an unknown `mark` or `as`, an id or time that is not a plain integer, a
 * parameter given twice) changes nothing: Fever answers 200 whatever happens.
 */
export async function applyMark(store: Store, params: RequestParams, now: Date): Promise<void> {
  const mark = singleParam(params, 'mark');
  const as = singleParam(params, 'as') ?? '';
  const id = integerParam(params, 'id');
  if (id === undefined) return;
  if (mark === 'item') {
    const change = ITEM_CHANGES[as];
    if (change !== undefined && id > 0) await changeEntries(store, [id], change, now);
    return;
  }
  if (as !== 'read' || (mark !== 'feed' && mark !== 'group')) return;
  const until = untilOf(params, now);
  if (until === undefined) return;
  if (mark === 'feed' && id > 0) await markStreamRead(store, { feedId: id }, until, now);
  if (mark === 'group' && id > 0) await markStreamRead(store, { channelId: id }, until, now);
  if (mark === 'group' && id === 0) await markStreamRead(store, {}, until, now);
}

/**
 * Up to when a mark applies: `before` (Unix seconds), now when there is none (as Fever's own server
 * did), undefined for one that is not a plain integer. A time after now is now: nothing was seen later,
 * and 1e20 seconds is no date (it answered 500).
 */
function untilOf(params: RequestParams, now: Date): Date | undefined {
  if (!params.has('before')) return now;
  // more digits than an id may have, up to a 64-bit integer's 19, is still a time after now: Read You's
  // "mark all read" sends Long.MAX_VALUE milliseconds in seconds, 16 digits
  if (/^[1-9]\d{15,18}$/.test(singleParam(params, 'before') ?? '')) return now;
  const seconds = integerParam(params, 'before');
  if (seconds === undefined) return undefined;
  // at or before T: the whole second T, so that an app sending last_refreshed_on_time (whole seconds,
  // rounded down from when entries were seen) marks the entries of that refresh too
  const until = seconds * 1000 + 999;
  return until >= now.getTime() ? now : new Date(until);
}
