import { EventEmitter } from 'node:events';
import type { PollHooks } from './hooks.js';

/** What the poller announces to the server: new entries stored for a feed. */
export interface NewEntriesEvent {
  feedId: number;
  entryIds: number[];
}

/**
 * The poller's announcements, for Microsub's server-sent events and the web UI. In one process the
 * poller's hooks feed it; events stay in the process (a separate `tidings worker` does not reach it).
 */
export class PollEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // every open SSE stream listens; do not warn at ten
    this.emitter.setMaxListeners(0);
  }

  onNewEntries(listener: (event: NewEntriesEvent) => void): () => void {
    this.emitter.on('entries', listener);
    return () => this.emitter.off('entries', listener);
  }

  emitNewEntries(event: NewEntriesEvent): void {
    if (event.entryIds.length > 0) this.emitter.emit('entries', event);
  }

  /** Hooks that announce what each poll stored. */
  hooks(): PollHooks {
    return {
      onStored: (feed, stored) => this.emitNewEntries({ feedId: feed.id, entryIds: stored.insertedIds }),
    };
  }
}
