import { EventEmitter } from 'node:events';
import type { EventRelay } from '../store/index.js';
import type { PollHooks } from './hooks.js';

/** What the poller announces to the server: new entries stored for a feed. */
export interface NewEntriesEvent {
  feedId: number;
  entryIds: number[];
}

/**
 * The poller's announcements, for Microsub's server-sent events and the web UI. Without a relay they
 * stay in the process. With one (PostgreSQL LISTEN/NOTIFY) the hooks publish through it and listeners
 * hear what every process of the database stored: `serve` processes behind a load balancer, and
 * `serve --no-poller` beside `tidings worker` processes.
 */
export class PollEvents {
  private readonly emitter = new EventEmitter();
  readonly relay: EventRelay | undefined;
  private readonly onError: (error: unknown) => void;

  constructor(relay?: EventRelay, onError: (error: unknown) => void = () => {}) {
    // every open SSE stream listens; do not warn at ten
    this.emitter.setMaxListeners(0);
    this.relay = relay;
    this.onError = onError;
    relay?.onMessage((message) => {
      if (message.kind === 'entries')
        this.emitNewEntries({ feedId: message.feedId, entryIds: message.entryIds });
    });
  }

  onNewEntries(listener: (event: NewEntriesEvent) => void): () => void {
    this.emitter.on('entries', listener);
    return () => this.emitter.off('entries', listener);
  }

  /** Tells this process's listeners. */
  emitNewEntries(event: NewEntriesEvent): void {
    if (event.entryIds.length > 0) this.emitter.emit('entries', event);
  }

  /** Tells every process of the database through the relay, or this one's listeners without one. */
  async announceNewEntries(event: NewEntriesEvent): Promise<void> {
    if (event.entryIds.length === 0) return;
    if (!this.relay) return this.emitNewEntries(event);
    try {
      await this.relay.publish({ kind: 'entries', ...event });
    } catch (error) {
      // the relay's connection is down: this process's streams still hear of it
      this.onError(error);
      this.emitNewEntries(event);
    }
  }

  /** Hooks that announce what each poll stored. */
  hooks(): PollHooks {
    return {
      onStored: (feed, stored) => this.announceNewEntries({ feedId: feed.id, entryIds: stored.insertedIds }),
    };
  }
}
