import type { StoredEntry, StoredFeed } from '../model/stored.js';

// The sync APIs' view of entries (Google Reader, Fever): no channel per entry. The rule, decided in
// src/reading/: an entry is unread for the apps when at least one channel that follows its feed shows it
// unread; marking it read or unread through the apps applies to every channel that follows its feed.

/** Which entries a sync stream holds: those some channel shows, plus saved ones, narrowed by these. */
export interface SyncFilter {
  /** Only this feed's entries. */
  feedId?: number | undefined;
  /** Only entries of feeds this channel follows (and shows). */
  channelId?: number | undefined;
  /** Only entries the apps see as unread, or only those they see as read. */
  readState?: 'unread' | 'read' | undefined;
  /** Only saved entries (their feed followed or not). */
  savedOnly?: boolean | undefined;
  /** Only entries first seen at or after this time (Google Reader `ot`: the crawl time). */
  seenFrom?: string | undefined;
  /** Only entries first seen at or before this time (`nt`, mark-all-as-read `ts`, Fever `before`). */
  seenUntil?: string | undefined;
  /** Only entries with an id above this one (Fever `since_id`). */
  idAbove?: number | undefined;
  /** Only entries with an id below this one (Fever `max_id`, a continuation). */
  idBelow?: number | undefined;
  /** Only these entries. */
  ids?: readonly number[] | undefined;
}

/** A page of a sync stream, by entry id (ids grow with the crawl time). */
export interface SyncQuery extends SyncFilter {
  oldestFirst: boolean;
  /** At least 1. */
  limit: number;
}

/** An entry's key in a sync stream. */
export interface SyncKey {
  id: number;
  firstSeenAt: string;
}

/** An entry as the apps see it: read by the apps' rule, saved, with its feed. */
export interface SyncEntry extends StoredEntry {
  isRead: boolean;
  isSaved: boolean;
  feed: Pick<StoredFeed, 'id' | 'url' | 'title' | 'siteUrl' | 'iconUrl'>;
}

/** A feed's count of entries the apps see as unread, and when the newest of them was first seen. */
export interface SyncFeedCount {
  feedId: number;
  unread: number;
  newestSeenAt: string;
}
