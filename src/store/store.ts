import { type Kysely, sql } from 'kysely';
import { Accounts } from './accounts/index.js';
import { type Area, ChannelOwners } from './area.js';
import type { Backend } from './backend.js';
import { Channels } from './channels/index.js';
import { Entries, PollWriter } from './entries/index.js';
import { FeedIcons, Feeds, Heartbeats, Polling } from './feeds/index.js';
import { migrate } from './migrate.js';
import { Notify } from './notify/index.js';
import { Filters, Reading } from './reading/index.js';
import { Rules } from './rules/index.js';
import type { Database } from './schema.js';
import { StoreError } from './store-error.js';
import { Sync } from './sync/index.js';
import { Users } from './users/index.js';
import { WebSubscriptions } from './websub/index.js';

/** User 1: the instance's first user, whom the root store (openStore's) acts as. */
export const FIRST_USER_ID = 1;

/** What a user's store shares with the root store: connection, backend, poll writer, listeners. */
interface Shared {
  db: Kysely<Database>;
  backend: Backend;
  pollWriter: PollWriter;
  listeners: Set<(channels: readonly number[]) => void>;
  owners: ChannelOwners;
  closed: { value: boolean };
}

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
  /** The instance's users. */
  readonly users: Users;
  /** Alerts: the user's destinations, and the instance's outbox of messages to send. */
  readonly notify: Notify;
  /** The user's rules: saved searches that act on new entries. */
  readonly rules: Rules;
  /** Each feed's WebSub subscription (issue 26). */
  readonly websub: WebSubscriptions;
  /** The user this store reads and writes as (FIRST_USER_ID for the root store). */
  readonly userId: number;
  readonly #db: Kysely<Database>;
  readonly #backend: Backend;
  /** What every user's store of this connection shares with it. */
  readonly #shared: Shared;

  constructor(db: Kysely<Database>, backend: Backend, userId: number = FIRST_USER_ID, shared?: Shared) {
    this.#db = db;
    this.#backend = backend;
    this.dialect = backend.dialect;
    this.userId = userId;
    this.#shared = shared ?? {
      db,
      backend,
      // writes polls in group commits
      pollWriter: new PollWriter(db, () => backend.afterPollsWritten?.(), backend.dialect),
      listeners: new Set(),
      owners: new ChannelOwners(),
      closed: { value: false },
    };
    const area: Area = {
      db,
      dialect: backend.dialect,
      userId,
      owners: this.#shared.owners,
      changed: (channels) => this.#changed(channels),
    };
    this.feeds = new Feeds(area);
    this.icons = new FeedIcons(area);
    this.heartbeats = new Heartbeats(area);
    this.polling = new Polling(area, backend, this.#shared.pollWriter);
    this.entries = new Entries(area);
    this.channels = new Channels(area);
    this.reading = new Reading(area);
    this.filters = new Filters(area);
    this.sync = new Sync(area);
    this.accounts = new Accounts(area);
    this.users = new Users(area);
    this.notify = new Notify(area);
    this.rules = new Rules(area);
    this.websub = new WebSubscriptions(area);
  }

  /**
   * The same store acting as another user: one connection, one poll writer and one set of listeners for
   * all, so that closing the root store closes every user's.
   */
  forUser(userId: number): Store {
    if (userId === this.userId) return this;
    return new Store(this.#db, this.#backend, userId, this.#shared);
  }

  /** Applies pending migrations (run on start). */
  async migrate(): Promise<void> {
    await migrate(this.#db, this.#backend, new Date());
  }

  /**
   * Resolves once the database answers a trivial query (`/healthz`); rejects when it does not, or when
   * this store was closed. It waits as long as the driver does: callers bound it with a timeout.
   */
  async ping(): Promise<void> {
    if (this.#shared.closed.value) throw new StoreError('unavailable', 'store: the store is closed');
    await sql`SELECT 1`.execute(this.#db);
  }

  /** Closes the connection (pool); calling it again does nothing. */
  async close(): Promise<void> {
    if (this.#shared.closed.value) return;
    this.#shared.closed.value = true;
    await this.#shared.pollWriter.drain();
    await this.#backend.close?.();
    await this.#db.destroy();
  }

  /**
   * Calls `listener` after each write of this store that may change what channels count as unread or
   * which feeds they follow (read state, removals, follows, moves, mute and block rules, a feed removed,
   * whichever front end asked), with the channels it touched, or 'all' when it may touch any. New entries
   * are the poller's to announce (PollEvents). A write that may touch any of a user's channels is heard
   * as all that user's channels. Listeners hear the writes of every user's store of this connection.
   * Returns a function that stops listening.
   */
  onChannelsChanged(listener: (channels: readonly number[]) => void): () => void {
    const listeners = this.#shared.listeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  #changed(channels: readonly number[]): void {
    for (const listener of this.#shared.listeners) {
      try {
        listener(channels);
      } catch {
        // a listener's failure is its own: the write is done
      }
    }
  }
}
