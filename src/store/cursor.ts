import { StoreError } from './store-error.js';

/** Where an entry sits in timelines: newest first by sort time, ties broken by id (higher is newer). */
export interface SortKey {
  sortAt: string;
  id: number;
}

const SORT_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The opaque cursor of a sort key: base64url of `sortAt|id`. */
export function encodeCursor(key: SortKey): string {
  return Buffer.from(`${key.sortAt}|${key.id}`, 'utf8').toString('base64url');
}

/**
 * The sort key a cursor holds. Anything that `encodeCursor` did not write (a cursor from another server,
 * an edited one) is a StoreError 'invalid', which the Microsub and web layers answer with 400.
 */
export function decodeCursor(cursor: string): SortKey {
  const text = /^[A-Za-z0-9_-]{1,100}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const [sortAt = '', idText = '', ...rest] = text.split('|');
  const id = /^[1-9]\d{0,15}$/.test(idText) ? Number(idText) : Number.NaN;
  // a time of the right shape must also be a time: 9999-99-99 or 2024-13-45T99:99 is none
  const time = SORT_AT.test(sortAt) ? Date.parse(sortAt) : Number.NaN;
  const isTime = Number.isFinite(time) && new Date(time).toISOString() === sortAt;
  if (rest.length > 0 || !isTime || !Number.isSafeInteger(id))
    throw new StoreError('invalid', `store: invalid cursor ${JSON.stringify(cursor.slice(0, 100))}`);
  return { sortAt, id };
}
