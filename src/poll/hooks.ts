import type { FetchOutcome } from '../fetch/index.js';
import type { Heartbeat, StoredFeed } from '../model/index.js';
import type { NewEntry } from '../store/index.js';

/**
 * Extension points of the poller, as the aggregators Planet and FeedJack had them (handleStatus,
 * furtherProcessEntry): filters, mute and block rules, tagging and notifications plug in here.
 */
export interface PollHooks {
  /**
   * Sees every fetch outcome (status, redirect, gone) before it is processed. A document's body is
   * handed to the parse thread once the hook returns: copy it to keep it.
   */
  onFetch?(feed: StoredFeed, outcome: FetchOutcome): void | Promise<void>;
  /** Sees each new or changed entry before it is stored: return it (changed or not), or null to drop it. */
  onEntry?(
    feed: StoredFeed,
    entry: NewEntry,
    change: 'new' | 'changed',
  ): NewEntry | null | Promise<NewEntry | null>;
  /** Hears what a poll stored (for notifications and server-sent events). */
  onStored?(feed: StoredFeed, stored: StoredPoll): void | Promise<void>;
}

/** What one poll of one feed left in the store. */
export interface StoredPoll {
  heartbeat: Omit<Heartbeat, 'id' | 'feedId'>;
  insertedIds: number[];
  updatedIds: number[];
}
