import type { StoredEntry, StoredFeed } from '../model/stored.js';

/** A channel with its unread count (entries of its feeds neither read nor removed nor filtered). */
export interface ChannelCount {
  channelId: number;
  unread: number;
}

/** An entry as a timeline shows it: with its read state in the channel and the feed it came from. */
export interface TimelineEntry extends StoredEntry {
  isRead: boolean;
  feed: Pick<StoredFeed, 'id' | 'url' | 'title' | 'siteUrl' | 'iconUrl'>;
}

/**
 * One page of a channel's timeline, newest first, by (sortAt, id). Cursors are opaque strings:
 * `after` asks for older entries than the cursor, `before` for newer ones. Keyset paging, so pages never
 * overlap; entries that arrive later sort above everything already there (see poll/entries.ts), so
 * asking `before` from the top cursor finds them all.
 */
export interface TimelineQuery {
  channelId: number;
  /** Only this feed's entries (Microsub `source`). */
  feedId?: number;
  before?: string;
  after?: string;
  limit: number;
  /** Only unread entries (Microsub `is_read=false`). */
  unreadOnly?: boolean;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  /** Cursor for newer entries; present whenever the page has entries. */
  before?: string;
  /** Cursor for older entries; present exactly when older entries remain. */
  after?: string;
}

/** A mute or block rule: an author or source URL, in one channel or everywhere (`channelId` undefined). */
export interface Filter {
  id: number;
  channelId?: number;
  kind: 'mute' | 'block';
  url: string;
  createdAt: string;
}

export interface SearchQuery {
  /** Words as a person types them; phrases in double quotes. */
  query: string;
  /** One channel, or all channels when undefined. */
  channelId?: number;
  limit: number;
  /** Cursor for the next page of results (older matches). */
  after?: string;
}

/**
 * The reading side of the store: timelines with cursors, read and removed state per channel, mute and
 * block rules, full-text search (SQLite FTS5, PostgreSQL tsvector), unread counts. Mute and block hide
 * entries whose author URL or feed URL (or site URL) matches a rule of the channel or a global rule.
 */
export interface ReaderStore {
  timeline(query: TimelineQuery): Promise<TimelinePage>;
  /** Entries by id with their state in a channel (for notifications and single-entry views). */
  entriesById(channelId: number, ids: readonly number[]): Promise<TimelineEntry[]>;
  /** Marks entries read (or unread) in a channel; unknown ids are ignored. */
  markRead(channelId: number, entryIds: readonly number[], read: boolean, now: string): Promise<void>;
  /** Marks an entry and every older one of the channel (by timeline order) read: Monocle's "mark all read". */
  markReadUpTo(channelId: number, entryId: number, now: string): Promise<void>;
  /** Hides entries from a channel's timeline (Microsub `remove`). */
  removeEntries(channelId: number, entryIds: readonly number[], now: string): Promise<void>;
  /** Removes every entry of a feed from a channel's timeline (unfollow with removal). */
  removeFeedEntries(channelId: number, feedId: number, now: string): Promise<void>;
  /** Moves a subscription to another channel, carrying read state over. */
  moveSubscription(feedId: number, fromChannelId: number, toChannelId: number, now: string): Promise<void>;
  unreadCounts(): Promise<ChannelCount[]>;

  addFilter(rule: { channelId?: number; kind: 'mute' | 'block'; url: string }, now: string): Promise<Filter>;
  removeFilter(rule: { channelId?: number; kind: 'mute' | 'block'; url: string }): Promise<void>;
  /** Rules of one channel (with the global ones when `includeGlobal`), or only the global ones. */
  listFilters(kind: 'mute' | 'block', channelId?: number): Promise<Filter[]>;

  searchEntries(query: SearchQuery): Promise<TimelinePage>;
}
