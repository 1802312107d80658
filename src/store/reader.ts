import type { Channel, StoredEntry, StoredFeed } from '../model/stored.js';

/** A channel with its unread count (entries of its feeds neither read nor removed nor filtered). */
export interface ChannelCount {
  channelId: number;
  unread: number;
}

/** A channel with its unread count and the number of feeds it follows. */
export interface ChannelSummary extends Channel {
  unread: number;
  followed: number;
}

/** A page of a view across channels ("All unread"): cursors as in TimelineQuery. */
export interface UnreadQuery {
  limit: number;
  before?: string | undefined;
  after?: string | undefined;
}

/** A feed's icon as stored; empty bytes and type record that none was found at `fetchedAt`. */
export interface FeedIcon {
  contentType: string;
  bytes: Uint8Array;
  fetchedAt: string;
}

/** One icon lookup's result, as saveFeedIcon takes it. */
export interface FeedIconRecord {
  feedId: number;
  icon: { contentType: string; bytes: Uint8Array } | undefined;
  now: string;
}

/** An entry as a timeline shows it: with its read state in the channel and the feed it came from. */
export interface TimelineEntry extends StoredEntry {
  isRead: boolean;
  /** Saved (starred): one state per entry, whatever the channel (issue 15). */
  isSaved?: boolean;
  feed: Pick<StoredFeed, 'id' | 'url' | 'title' | 'siteUrl' | 'iconUrl'>;
}

/**
 * One page of a channel's timeline, newest first, by (sortAt, id). Cursors are opaque strings:
 * `after` asks for older entries than the cursor, `before` for newer ones (the `limit` entries just
 * above it, still returned newest first). Keyset paging, so pages never overlap; entries that arrive
 * later sort above everything already there (see poll/entries.ts), so asking `before` from the top
 * cursor finds them all. A cursor the store did not write, both cursors at once, or a limit below 1:
 * StoreError 'invalid' (answer 400). Optional fields may be given as `undefined` (unparsed parameters).
 */
export interface TimelineQuery {
  channelId: number;
  /** Only this feed's entries (Microsub `source`). */
  feedId?: number | undefined;
  before?: string | undefined;
  after?: string | undefined;
  /** Entries per page, at least 1; more than 500 is read as 500. */
  limit: number;
  /** Only unread entries (Microsub `is_read=false`). */
  unreadOnly?: boolean | undefined;
}

export interface TimelinePage {
  entries: TimelineEntry[];
  /**
   * Cursor for newer entries; present whenever the page has entries. An empty page asked `before` a
   * cursor hands that cursor back, so a client polling for new entries can keep asking with it.
   */
  before?: string;
  /** Cursor for older entries; present exactly when older entries remain. */
  after?: string;
}

/**
 * An entry of a timeline page by reference: its state in the channel, its feed, and when it last changed,
 * which tells a front end whether a copy it made of the entry earlier still holds.
 */
export interface TimelineRef {
  id: number;
  changedAt: string;
  isRead: boolean;
  isSaved: boolean;
  feed: TimelineEntry['feed'];
}

/** A page of a timeline by reference: the same page, in the same order and with the same cursors, as TimelinePage. */
export interface TimelineRefPage {
  refs: TimelineRef[];
  before?: string;
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

/** A mute or block rule as callers name it: `channelId` undefined for a global rule. */
export interface FilterRule {
  channelId?: number | undefined;
  kind: 'mute' | 'block';
  url: string;
}

export interface SearchQuery {
  /**
   * Words as a person types them; phrases in double quotes. Every word and phrase must appear (case
   * aside); nothing is an operator (AND, OR, NEAR, *, - are words), so no input is a syntax error.
   * SQLite also ignores diacritics ("cafe" finds "café"); PostgreSQL's 'simple' configuration does not.
   */
  query: string;
  /** One channel, or all channels when undefined (an entry is read there when read in any channel). */
  channelId?: number | undefined;
  limit: number;
  /** Cursor for the next page of results (older matches). */
  after?: string | undefined;
}

/**
 * The reading side of the store: timelines with cursors, read and removed state per channel, mute and
 * block rules, full-text search (SQLite FTS5, PostgreSQL tsvector), unread counts. Mute and block hide
 * entries whose author URL or feed URL (or site URL) matches a rule of the channel or a global rule.
 */
export interface ReaderStore {
  timeline(query: TimelineQuery): Promise<TimelinePage>;
  /**
   * The same page as `timeline` by reference, without the entries' content: for a front end that keeps
   * what it made of entries (Microsub's jf2) and loads only those that changed (`entriesById`).
   */
  timelineRefs(query: TimelineQuery): Promise<TimelineRefPage>;
  /**
   * Entries by id with their state in a channel (for notifications and single-entry views), in the
   * order asked; unknown ids are left out. No subscription, removed or filter check is applied.
   */
  entriesById(channelId: number, ids: readonly number[]): Promise<TimelineEntry[]>;
  /** Marks entries read (or unread) in a channel; unknown ids are ignored. */
  markRead(channelId: number, entryIds: readonly number[], read: boolean, now: string): Promise<void>;
  /**
   * Marks an entry and every older one of the channel (by timeline order) read: Monocle's "mark all read".
   * An unknown entry changes nothing.
   */
  markReadUpTo(channelId: number, entryId: number, now: string): Promise<void>;
  /** Hides entries from a channel's timeline (Microsub `remove`). */
  removeEntries(channelId: number, entryIds: readonly number[], now: string): Promise<void>;
  /** Removes every entry of a feed from a channel's timeline (unfollow with removal). */
  removeFeedEntries(channelId: number, feedId: number, now: string): Promise<void>;
  /**
   * Moves a subscription to another channel, carrying read and removed state over (an entry read in
   * either channel stays read). A feed the first channel does not follow: StoreError 'not_found'.
   */
  moveSubscription(feedId: number, fromChannelId: number, toChannelId: number, now: string): Promise<void>;
  /** Every channel's unread count (0s included), in channel order; kept by the writes, not recounted. */
  unreadCounts(): Promise<ChannelCount[]>;
  /** Every channel in order with its unread count (as unreadCounts) and how many feeds it follows. */
  channelSummaries(): Promise<ChannelSummary[]>;

  /**
   * Adds a rule, or returns the one that exists (same channel, kind and URL). URLs match exactly as
   * stored: normalize them as the parser does (`new URL(url).href`) before calling.
   */
  addFilter(rule: FilterRule, now: string): Promise<Filter>;
  /** Removes a rule; an unknown one changes nothing. */
  removeFilter(rule: FilterRule): Promise<void>;
  /** With a channel: its rules and the global ones; without: only the global ones. Oldest first. */
  listFilters(kind: 'mute' | 'block', channelId?: number): Promise<Filter[]>;

  searchEntries(query: SearchQuery): Promise<TimelinePage>;

  // reader: the web reader's views (sidebar counts per feed, "All unread", mark read with undo)
  /** Entries unread in a channel that shows them, across all channels, each once, newest first. */
  allUnread(query: UnreadQuery): Promise<TimelinePage>;
  /** How many entries allUnread lists, each once (a feed two channels follow is not counted twice). */
  allUnreadCount(): Promise<number>;
  /** Saved (starred) entries, the most recently saved first, with the timeline's cursors (the Saved view). */
  savedEntries(query: UnreadQuery): Promise<TimelinePage>;
  /** The cursor of a saved entry's place in savedEntries (to find its neighbours); undefined when not saved. */
  savedCursor(entryId: number): Promise<string | undefined>;
  /**
   * Marks read the unread entries a channel shows (optionally of one feed, and/or at or below an entry in
   * timeline order) and returns the ids it changed, so that an undo can mark exactly those unread again.
   */
  markReadReturningIds(
    channelId: number,
    scope: { feedId?: number | undefined; upToEntryId?: number | undefined },
    now: string,
  ): Promise<number[]>;
  /** A feed's icon, or the record that none was found; undefined when it was never looked for. */
  feedIcon(feedId: number): Promise<FeedIcon | undefined>;
  /** Stores a feed's icon (image bytes and type), or with undefined that none was found at `now`. */
  saveFeedIcon(
    feedId: number,
    icon: { contentType: string; bytes: Uint8Array } | undefined,
    now: string,
  ): Promise<void>;
  /** The ids of the feeds that have an icon to show. */
  feedIdsWithIcons(): Promise<number[]>;
  /** Stores several icon lookups' results (as saveFeedIcon) in one transaction. */
  saveFeedIcons(records: readonly FeedIconRecord[]): Promise<void>;
  /** When the icons of these feeds were last looked for; a feed never looked for is absent. */
  feedIconTimes(feedIds: readonly number[]): Promise<Map<number, string>>;
}
