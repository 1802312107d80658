import type { StoredFeed } from '../model/stored.js';
import type { PollDeps } from './deps.js';
import { ICON_LOOKUP_MS, type IconDeps, refreshFeedIcon } from './feed-icon.js';

/** How the background lookups run. */
export interface IconLookupSettings {
  /** Lookups at a time (default 4): a burst of DNS lookups for sites that do not resolve stalls them all. */
  concurrency?: number;
  /** The deadline of each whole lookup (default ICON_LOOKUP_MS). */
  deadlineMs?: number;
  /** Feeds waiting beyond this are not queued (they are looked for after a later poll). */
  maxQueued?: number;
}

/**
 * Feed icons looked for in the background, a few at a time, off the path of every poll and follow: a
 * poll hands its feed over and goes on (issue 22: a poll waited for its feed's icon, so four hanging
 * icon links made a quickadd take 40 s, and 1,000 new feeds took 193 s instead of 6.5 s). `close()`
 * cancels what runs and what waits (serve's SIGTERM, a worker's stop, the end of `poll --once`); a
 * cancelled lookup records nothing, so a later poll asks again.
 */
export class IconLookups {
  readonly #deps: IconDeps & Pick<PollDeps, 'now'>;
  readonly #queue = new Map<number, StoredFeed>();
  readonly #running = new Map<number, Promise<void>>();
  readonly #closing = new AbortController();
  readonly #concurrency: number;
  readonly #deadlineMs: number;
  readonly #maxQueued: number;

  constructor(deps: IconDeps & Pick<PollDeps, 'now'>, settings: IconLookupSettings = {}) {
    this.#deps = deps;
    this.#concurrency = Math.max(settings.concurrency ?? 4, 1);
    this.#deadlineMs = settings.deadlineMs ?? ICON_LOOKUP_MS;
    this.#maxQueued = settings.maxQueued ?? 10_000;
  }

  /** Queues a lookup of the feed's icon (nothing when one is queued or running for it); never waits. */
  request(feed: StoredFeed): void {
    if (this.#closing.signal.aborted || this.#running.has(feed.id)) return;
    if (this.#queue.size >= this.#maxQueued && !this.#queue.has(feed.id)) return;
    this.#queue.set(feed.id, feed);
    this.#startWhatFits();
  }

  /** Resolves once nothing is queued or running (tests, and callers that want the icons now). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running.values());
  }

  /** Cancels every lookup, queued or running; resolves once the running ones have ended. */
  async close(): Promise<void> {
    this.#closing.abort();
    this.#queue.clear();
    await Promise.all(this.#running.values());
  }

  #startWhatFits(): void {
    for (const [id, feed] of this.#queue) {
      if (this.#running.size >= this.#concurrency) return;
      this.#queue.delete(id);
      const options = { cancel: this.#closing.signal, deadlineMs: this.#deadlineMs };
      const task = refreshFeedIcon(this.#deps, feed, this.#deps.now(), options).finally(() => {
        this.#running.delete(id);
        this.#startWhatFits();
      });
      this.#running.set(id, task);
    }
  }
}
