import type { SyncFilter } from '../store/index.js';

// Google Reader ids. An item id is one 64-bit number written two ways: the long form
// `tag:google.com,2005:reader/item/<16 hex digits>` (stream/contents, edit-tag) and a decimal string
// (stream/items/ids). Apps send either back, and some send the 16 hex digits alone; Google's decimal
// form was signed, so a negative number is the same 64 bits read as two's complement.

const LONG_PREFIX = 'tag:google.com,2005:reader/item/';

/** The long form of an entry id. */
export function longItemId(id: number): string {
  return `${LONG_PREFIX}${id.toString(16).padStart(16, '0')}`;
}

/** The entry id an `i` parameter names in any form, or undefined. */
export function parseItemId(value: string): number | undefined {
  const text = value.trim();
  let bits: bigint | undefined;
  const hex = text.startsWith(LONG_PREFIX) ? text.slice(LONG_PREFIX.length) : undefined;
  if (hex !== undefined) bits = /^[0-9a-f]{1,16}$/i.test(hex) ? BigInt(`0x${hex}`) : undefined;
  // 16 hex digits alone: ours are zero-padded, and a decimal id tidings wrote never starts with 0
  else if (/^[0-9a-f]{16}$/i.test(text) && (/[a-f]/i.test(text) || text.startsWith('0')))
    bits = BigInt(`0x${text}`);
  else if (/^-?\d{1,20}$/.test(text)) bits = BigInt.asUintN(64, BigInt(text));
  if (bits === undefined || bits <= 0n || bits > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return Number(bits);
}

/** The stream id of a feed (`feed/<id>`, as FreshRSS and Miniflux write it). */
export function feedStreamId(feedId: number): string {
  return `feed/${feedId}`;
}

/** The stream id of a folder (a tidings channel). */
export function labelStreamId(name: string): string {
  return `user/-/label/${name}`;
}

export const READING_LIST = 'user/-/state/com.google/reading-list';
export const READ = 'user/-/state/com.google/read';
export const STARRED = 'user/-/state/com.google/starred';

/** What a stream id names; the user part may be `-` or any user id. */
export type StreamRef =
  | { kind: 'state'; state: string }
  | { kind: 'label'; name: string }
  | { kind: 'feed'; id?: number; url?: string }
  | { kind: 'unknown' };

/** Reads a stream id: `user/-/state/com.google/X`, `user/-/label/X`, `feed/<id>` or `feed/<url>`. */
export function parseStreamId(value: string): StreamRef {
  const state = /^user\/[^/]*\/state\/com\.google\/(.+)$/.exec(value);
  if (state?.[1]) return { kind: 'state', state: state[1] };
  const label = /^user\/[^/]*\/label\/(.+)$/.exec(value);
  if (label?.[1]) return { kind: 'label', name: label[1] };
  if (value.startsWith('feed/')) {
    const rest = value.slice('feed/'.length);
    if (/^\d{1,15}$/.test(rest)) return { kind: 'feed', id: Number(rest) };
    if (/^https?:\/\//i.test(rest)) return { kind: 'feed', url: rest };
  }
  return { kind: 'unknown' };
}

/** A folder name from a label stream id or a bare name (rename-tag, disable-tag and edit accept both). */
export function labelName(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ref = parseStreamId(value);
  if (ref.kind === 'label') return ref.name;
  return ref.kind === 'unknown' && !value.includes('/') ? value.trim() : undefined;
}

/** The read and saved condition a state names (`read`, `starred`, `kept-unread`, `unread`), or undefined for others. */
export function stateFilter(state: string): Pick<SyncFilter, 'readState' | 'savedOnly'> | undefined {
  if (state === 'reading-list') return {};
  if (state === 'read') return { readState: 'read' };
  if (state === 'starred') return { savedOnly: true };
  // `unread` is no Google state, but FreshRSS serves it and apps ask for it (it, xt, s)
  if (state === 'kept-unread' || state === 'unread') return { readState: 'unread' };
  return undefined;
}
