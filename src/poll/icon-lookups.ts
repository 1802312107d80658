import type { StoredFeed } from '../model/stored.js';
import type { PollDeps } from './deps.js';
import { ICON_LOOKUP_MS, type IconDeps, refreshFeedIcon } from './feed-icon.js';
import type { IconFetch } from './icon-fetch.js';

/** The longest close() waits for the lookups it cancelled. */
const CLOSE_GRACE_MS = 200;

/** How the background lookups run. */
export interface IconLookupSettings {
  /**
   * Lookups at a time (default 2). A lookup of a site that does not resolve can hold one of the four
   * threads of the system resolver (libuv's pool, which zlib and file reads share) for 5 s and more.
   */
  concurrency?: number;
  /** The deadline of each whole lookup (default ICON_LOOKUP_MS). */
  deadlineMs?: number;
  /** Feeds waiting beyond this are not queued (they are looked for after a later poll). */
  maxQueued?: number;
  /** A fetch of the lookups' own (createIconFetch), closed with them; default the poller's. */
  fetch?: IconFetch;
}

/**
 * Feed icons looked for in the background, two at a time, off the path of every poll and follow: a
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
  readonly #fetch: IconFetch | undefined;

  constructor(deps: IconDeps & Pick<PollDeps, 'now'>, settings: IconLookupSettings = {}) {
    this.#fetch = settings.fetch;
    this.#deps = settings.fetch ? { ...deps, fetch: settings.fetch.fetch } : deps;
    this.#concurrency = Math.max(settings.concurrency ?? 2, 1);
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

  /**
   * Cancels every lookup, queued or running; resolves once the running ones have ended, or after
   * `graceMs` (default 0.2 s) at the latest: an aborted fetch still waits for a DNS lookup under way in the
   * system resolver (5 s and more for a name that does not answer), and stopping never waits for that.
   * A lookup that ends later records nothing.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    this.#closing.abort();
    this.#queue.clear();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    await Promise.race([Promise.all(this.#running.values()), grace]);
    clearTimeout(timer);
    await this.#fetch?.close();
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
