import type { StoredFeed } from '../model/index.js';
import type { FeedIconRecord } from '../store/index.js';
import type { IconQueue, PollDeps } from './deps.js';
import { ICON_LOOKUP_MS, type IconDeps, isIconFresh, lookUpFeedIcon } from './feed-icon.js';
import type { IconFetch } from './icon-fetch.js';

/** The longest close() waits for the lookups it cancelled. */
const CLOSE_GRACE_MS = 200;
/** Results are stored together, once this many wait or after SAVE_AFTER_MS. */
const SAVE_BATCH = 50;
const SAVE_AFTER_MS = 250;
/** Icon records are read for this many queued feeds at a time. */
const CHECK_BATCH = 500;

/** How the background lookups run. */
export interface IconLookupSettings {
  /**
   * Lookups at a time (default 2). A lookup of a site that does not resolve can hold one of the four
   * threads of the system resolver (libuv's pool, which zlib and file reads share) for 5 s and more.
   */
  concurrency?: number;
  /** The deadline of each whole lookup (default ICON_LOOKUP_MS). */
  deadlineMs?: number;
  /**
   * Feeds waiting beyond this (default 1,000) are not queued: they are looked for after a later poll
   * (a round of 10,000 new feeds otherwise kept them all waiting, in memory).
   */
  maxQueued?: number;
  /** A fetch of the lookups' own (createIconFetch), closed with them; default the poller's. */
  fetch?: IconFetch;
}

/**
 * Feed icons looked for in the background, two at a time, off the path of every poll and follow: a
 * poll hands its feed over and goes on (issue 22: a poll waited for its feed's icon, so four hanging
 * icon links made a quickadd take 40 s, and 1,000 new feeds took 193 s instead of 6.5 s). The icon
 * records of the feeds handed over are read together, and the results stored together, so that a
 * round of new feeds adds few statements beside the polls' own. `close()` cancels what runs and what
 * waits (serve's SIGTERM, a worker's stop, the end of `poll --once`); a cancelled lookup records
 * nothing, so a later poll asks again.
 */
export class IconLookups implements IconQueue {
  readonly #deps: IconDeps & Pick<PollDeps, 'now'>;
  readonly #queue = new Map<number, StoredFeed>();
  /** Queued feeds whose record says they are due for a lookup. */
  readonly #due = new Set<number>();
  readonly #running = new Map<number, Promise<void>>();
  readonly #closing = new AbortController();
  readonly #settings: Required<Omit<IconLookupSettings, 'fetch'>>;
  readonly #fetch: IconFetch | undefined;
  #checking: Promise<void> | undefined;
  #unsaved: FeedIconRecord[] = [];
  #saveTimer: NodeJS.Timeout | undefined;
  #saving: Promise<void> = Promise.resolve();

  constructor(deps: IconDeps & Pick<PollDeps, 'now'>, settings: IconLookupSettings = {}) {
    this.#fetch = settings.fetch;
    this.#deps = settings.fetch ? { ...deps, fetch: settings.fetch.fetch } : deps;
    this.#settings = {
      concurrency: Math.max(settings.concurrency ?? 2, 1),
      deadlineMs: settings.deadlineMs ?? ICON_LOOKUP_MS,
      maxQueued: settings.maxQueued ?? 1000,
    };
  }

  /** Queues a lookup of the feed's icon (nothing when one is queued or running for it); never waits. */
  request(feed: StoredFeed): void {
    if (this.#closing.signal.aborted || this.#running.has(feed.id) || this.#queue.has(feed.id)) return;
    if (this.#queue.size >= this.#settings.maxQueued) return;
    this.#queue.set(feed.id, feed);
    this.#pump();
  }

  /** Resolves once nothing is queued or running and the results are stored (tests). */
  async idle(): Promise<void> {
    while (this.#running.size > 0 || this.#checking !== undefined) {
      await Promise.all([...this.#running.values(), this.#checking]);
    }
    this.#flush();
    await this.#saving;
  }

  /**
   * Cancels every lookup, queued or running, and stores the results found before; resolves once the
   * running ones have ended, or after `graceMs` (default 0.2 s) at the latest: an aborted fetch may still
   * wait for its connection, and stopping never waits for that. A lookup that ends later records nothing.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    this.#closing.abort();
    this.#queue.clear();
    let timer: NodeJS.Timeout | undefined;
    // a timer that holds the process: an unref'd one let a process whose cancelled lookup held nothing
    // open end in the middle of this await (exit code 13, serve's SIGTERM now and then)
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.all([...this.#running.values(), this.#checking]), grace]);
    clearTimeout(timer);
    this.#flush();
    await this.#saving;
    await this.#fetch?.close();
  }

  #pump(): void {
    if (this.#closing.signal.aborted) return;
    this.#checkQueued();
    for (const [id, feed] of this.#queue) {
      if (this.#running.size >= this.#settings.concurrency) return;
      if (!this.#due.has(id)) continue;
      this.#queue.delete(id);
      this.#due.delete(id);
      this.#start(feed);
    }
  }

  /**
   * Reads the icon records of queued feeds not checked yet, one read at a time and once the feeds handed
   * over in the same turn of the event loop are queued; fresh ones leave the queue.
   */
  #checkQueued(): void {
    if (this.#checking !== undefined) return;
    if (![...this.#queue.keys()].some((id) => !this.#due.has(id))) return;
    this.#checking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        const ids = [...this.#queue.keys()].filter((id) => !this.#due.has(id)).slice(0, CHECK_BATCH);
        return this.#check(ids);
      })
      .finally(() => {
        this.#checking = undefined;
        this.#pump();
      });
  }

  async #check(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#deps.store.icons
      .times(ids)
      .then((times) => {
        const now = this.#deps.now();
        for (const id of ids) {
          if (isIconFresh(times.get(id), now)) this.#queue.delete(id);
          else if (this.#queue.has(id)) this.#due.add(id);
        }
      })
      .catch((err: unknown) => {
        this.#deps.log.warn({ err }, 'poll: reading the icon records failed');
        for (const id of ids) this.#queue.delete(id);
      });
  }

  #start(feed: StoredFeed): void {
    const now = this.#deps.now().toISOString();
    const options = { cancel: this.#closing.signal, deadlineMs: this.#settings.deadlineMs };
    const task = lookUpFeedIcon(this.#deps, feed, options)
      .then((found) => {
        if (found && !this.#closing.signal.aborted) this.#save({ feedId: feed.id, icon: found.icon, now });
      })
      .catch((err: unknown) => {
        this.#deps.log.warn({ err, feedId: feed.id }, 'poll: looking for the feed icon failed');
      })
      .finally(() => {
        this.#running.delete(feed.id);
        this.#pump();
      });
    this.#running.set(feed.id, task);
  }

  #save(record: FeedIconRecord): void {
    this.#unsaved.push(record);
    if (this.#unsaved.length >= SAVE_BATCH) this.#flush();
    else if (this.#saveTimer === undefined) {
      this.#saveTimer = setTimeout(() => this.#flush(), SAVE_AFTER_MS);
      this.#saveTimer.unref();
    }
  }

  /** Stores the results gathered so far, after those stored before. */
  #flush(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    const records = this.#unsaved.splice(0);
    if (records.length === 0) return;
    this.#saving = this.#saving.then(() =>
      this.#deps.store.icons.saveMany(records).catch((err: unknown) => {
        this.#deps.log.warn({ err, feeds: records.length }, 'poll: storing the feed icons failed');
      }),
    );
  }
}
