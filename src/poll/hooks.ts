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

/**
 * One set of hooks made of several (server-sent events, metrics, alerts): each is called in the order
 * given; `onEntry` hands the entry from one to the next and stops at the first that drops it.
 */
export function combineHooks(...all: readonly PollHooks[]): PollHooks {
  const combined: PollHooks = {};
  const onFetch = all.flatMap((hooks) => (hooks.onFetch ? [hooks.onFetch.bind(hooks)] : []));
  const onEntry = all.flatMap((hooks) => (hooks.onEntry ? [hooks.onEntry.bind(hooks)] : []));
  const onStored = all.flatMap((hooks) => (hooks.onStored ? [hooks.onStored.bind(hooks)] : []));
  if (onFetch.length > 0)
    combined.onFetch = async (feed, outcome) => {
      for (const hook of onFetch) await hook(feed, outcome);
    };
  if (onEntry.length > 0)
    combined.onEntry = async (feed, entry, change) => {
      let kept: NewEntry | null = entry;
      for (const hook of onEntry) {
        if (kept === null) break;
        kept = await hook(feed, kept, change);
      }
      return kept;
    };
  if (onStored.length > 0)
    combined.onStored = async (feed, stored) => {
      for (const hook of onStored) await hook(feed, stored);
    };
  return combined;
}
