import type { Kysely } from 'kysely';
import { Accounts } from './accounts/index.js';
import type { Area } from './area.js';
import type { Backend } from './backend.js';
import { Channels } from './channels/index.js';
import { Entries, PollWriter } from './entries/index.js';
import { FeedIcons, Feeds, Heartbeats, Polling } from './feeds/index.js';
import { migrate } from './migrate.js';
import { Filters, Reading } from './reading/index.js';
import type { Database } from './schema.js';
import { Sync } from './sync/index.js';
import type { ChangedChannels } from './types.js';

/**
 * The store: SQLite (embedded, default) or PostgreSQL behind one query layer (Kysely), by area. Each area
 * is one class whose methods are the queries: `store.feeds.get(id)`, `store.reading.timeline(query)`.
 * All timestamps are ISO 8601 UTC strings as `Date.prototype.toISOString` writes them.
 */
export class Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Feeds: added, looked up, patched, removed, swept when unfollowed. */
  readonly feeds: Feeds;
  /** Feed icons as the poller finds them. */
  readonly icons: FeedIcons;
  /** Each feed's heartbeats (one a poll). */
  readonly heartbeats: Heartbeats;
  /** The poller's side: claims, leases, polling rounds, each poll's outcome. */
  readonly polling: Polling;
  /** Stored entries by id or feed, their sizes, retention. */
  readonly entries: Entries;
  /** Channels and their subscriptions. */
  readonly channels: Channels;
  /** Timelines, read state, the reader's views, search, unread counts. */
  readonly reading: Reading;
  /** Mute and block rules. */
  readonly filters: Filters;
  /** The sync APIs' streams (Google Reader, Fever), saved entries, read everywhere. */
  readonly sync: Sync;
  /** Tokens, API sessions, settings. */
  readonly accounts: Accounts;
  readonly #db: Kysely<Database>;
  readonly #backend: Backend;
  #closed = false;
  /** Writes polls in group commits. */
  readonly #pollWriter: PollWriter;
  readonly #channelListeners = new Set<(channels: ChangedChannels) => void>();

  constructor(db: Kysely<Database>, backend: Backend) {
    this.#db = db;
    this.#backend = backend;
    this.dialect = backend.dialect;
    this.#pollWriter = new PollWriter(db, () => backend.afterPollsWritten?.(), backend.dialect);
    const area: Area = {
      db,
      dialect: backend.dialect,
      userId: 1,
      changed: (channels) => this.#changed(channels),
    };
    this.feeds = new Feeds(area);
    this.icons = new FeedIcons(area);
    this.heartbeats = new Heartbeats(area);
    this.polling = new Polling(area, backend, this.#pollWriter);
    this.entries = new Entries(area);
    this.channels = new Channels(area);
    this.reading = new Reading(area);
    this.filters = new Filters(area);
    this.sync = new Sync(area);
    this.accounts = new Accounts(area);
  }

  /** Applies pending migrations (run on start). */
  async migrate(): Promise<void> {
    await migrate(this.#db, this.#backend, new Date());
  }

  /** Closes the connection (pool); calling it again does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pollWriter.drain();
    await this.#backend.close?.();
    await this.#db.destroy();
  }

  /**
   * Calls `listener` after each write of this store that may change what channels count as unread or
   * which feeds they follow (read state, removals, follows, moves, mute and block rules, a feed removed,
   * whichever front end asked), with the channels it touched, or 'all' when it may touch any. New entries
   * are the poller's to announce (PollEvents). Returns a function that stops listening.
   */
  onChannelsChanged(listener: (channels: ChangedChannels) => void): () => void {
    this.#channelListeners.add(listener);
    return () => this.#channelListeners.delete(listener);
  }

  #changed(channels: ChangedChannels): void {
    for (const listener of this.#channelListeners) {
      try {
        listener(channels);
      } catch {
        // a listener's failure is its own: the write is done
      }
    }
  }
}
