import type { FetchOutcome, FetchRequest } from '../fetch/types.js';
import type { HeartbeatStatus } from '../model/heartbeat.js';
import type { StoredFeed } from '../model/stored.js';
import { UNFOLLOWED_KEEP_DAYS } from '../store/unfollowed.js';
import type { PollDeps } from './deps.js';
import { HostLimit } from './host-limit.js';
import { buildRequest, processOutcome } from './refresh.js';

export interface PollRunOptions {
  /** Poll every feed now, not only those due (never one that is paused, gone, or under a Retry-After). */
  force?: boolean;
  /** Only these feeds. */
  feedIds?: readonly number[];
  /** Called after each feed, for progress on stderr. */
  onProgress?: (event: { feed: StoredFeed; status: HeartbeatStatus; done: number; newCount: number }) => void;
  signal?: AbortSignal;
}

export interface PollSummary {
  feeds: number;
  byStatus: Partial<Record<HeartbeatStatus, number>>;
  newEntries: number;
  updatedEntries: number;
  durationMs: number;
}

/**
 * One polling run: claims the due feeds (in batches, under a lease, so that several processes share
 * the work), fetches them concurrently (at most `concurrency` at a time and `perHostConcurrency` per
 * host, picking the next feed whose host has room), and processes each result as its fetch ends, in
 * its own transaction. A fetch gives its slot back as soon as its body is in: processing (parse in a
 * worker thread, then the store) never holds up the next fetch, and at most `2 x concurrency` fetched
 * documents wait to be processed. One feed's failure never stops the run.
 */
export async function pollOnce(deps: PollDeps, options: PollRunOptions = {}): Promise<PollSummary> {
  const started = Date.now();
  // A whole run (not a one-feed refresh) also forgets the feeds nobody has followed for a while.
  if (options.feedIds === undefined)
    await deps.store.sweepUnfollowedFeeds(deps.now().toISOString(), UNFOLLOWED_KEEP_DAYS);
  const run = new PollRun(deps, options);
  await run.execute();
  return { ...run.summary, durationMs: Date.now() - started };
}

class PollRun {
  readonly summary: Omit<PollSummary, 'durationMs'> = {
    feeds: 0,
    byStatus: {},
    newEntries: 0,
    updatedEntries: 0,
  };
  private readonly queue: StoredFeed[] = [];
  private readonly hosts: HostLimit;
  /** Fetches in flight. */
  private readonly running = new Set<Promise<void>>();
  /** Fetched documents being processed. */
  private readonly processing = new Set<Promise<void>>();
  private readonly maxProcessing: number;
  private exhausted = false;
  private readonly taken = new Set<number>();
  private readonly startedAt: string;
  private readonly batch: number;
  private readonly leaseMs: number;

  constructor(
    private readonly deps: PollDeps,
    private readonly options: PollRunOptions,
  ) {
    this.hosts = new HostLimit(deps.config.perHostConcurrency);
    this.startedAt = deps.now().toISOString();
    this.batch = Math.max(deps.config.concurrency * 4, 16);
    this.maxProcessing = deps.config.concurrency * 2;
    // a claimed feed is fetched within a few timeouts; the lease outlives that, then lapses for others
    this.leaseMs = deps.config.timeoutMs * 6 + 60_000;
  }

  async execute(): Promise<void> {
    for (;;) {
      if (this.options.signal?.aborted) this.stop();
      if (this.queue.length < this.deps.config.concurrency && !this.exhausted) await this.claim();
      const hasRoom = this.processing.size < this.maxProcessing;
      if (hasRoom) this.startWhatFits();
      if (this.running.size === 0 && hasRoom) {
        if (this.queue.length === 0 && this.exhausted) break;
        if (this.queue.length > 0 && this.exhausted) this.startAnyway();
        if (this.running.size === 0 && this.processing.size === 0) continue;
      }
      await Promise.race([...this.running, ...this.processing]);
    }
    await Promise.all(this.processing);
  }

  // Stopping (SIGINT, SIGTERM): nothing more is claimed or started, the feeds claimed but not started go
  // back to the other workers at once (not when their lease runs out), and the fetches under way are
  // aborted (fetchFeed): what was fetched before is still processed and stored.
  private stop(): void {
    this.exhausted = true;
    for (const feed of this.queue.splice(0))
      void this.deps.store.releaseFeed(feed.id, this.deps.workerId).catch(() => undefined);
  }

  private async claim(): Promise<void> {
    const claimed = await this.deps.store.claimDueFeeds({
      now: this.deps.now().toISOString(),
      limit: this.batch,
      workerId: this.deps.workerId,
      leaseMs: this.leaseMs,
      ...(this.options.force ? { force: true } : {}),
      ...(this.options.feedIds ? { feedIds: this.options.feedIds } : {}),
      notCheckedSince: this.startedAt,
    });
    if (claimed.length < this.batch) this.exhausted = true;
    // a feed whose processing failed has no new check time: never take it twice in one run
    const fresh = claimed.filter((feed) => !this.taken.has(feed.id));
    if (fresh.length === 0 && claimed.length > 0) this.exhausted = true;
    for (const feed of claimed) {
      if (this.taken.has(feed.id))
        void this.deps.store.releaseFeed(feed.id, this.deps.workerId).catch(() => undefined);
      this.taken.add(feed.id);
    }
    this.queue.push(...fresh);
  }

  /** Starts the next feeds whose hosts have room, up to the concurrency limit. */
  private startWhatFits(): void {
    for (let i = 0; i < this.queue.length && this.running.size < this.deps.config.concurrency; ) {
      const feed = this.queue[i] as StoredFeed;
      const host = HostLimit.hostOf(feed.pendingMoveUrl ?? feed.url);
      if (!this.hosts.hasRoom(host)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.start(feed, host);
    }
  }

  // Every queued feed waits on a busy host: nothing else can run, so wait for that host.
  private startAnyway(): void {
    const feed = this.queue.shift();
    if (feed) this.start(feed, HostLimit.hostOf(feed.pendingMoveUrl ?? feed.url));
  }

  private start(feed: StoredFeed, host: string): void {
    this.hosts.acquire(host);
    const task = this.fetchFeed(feed).finally(() => {
      this.hosts.release(host);
      this.running.delete(task);
    });
    this.running.add(task);
  }

  /** Fetches one feed, then hands the outcome to processing and gives the fetch slot back. */
  private async fetchFeed(feed: StoredFeed): Promise<void> {
    const { deps } = this;
    const startedAt = deps.now();
    let request: FetchRequest;
    let outcome: FetchOutcome;
    try {
      request = buildRequest(deps, feed, startedAt);
      if (this.options.signal) request.signal = this.options.signal;
      outcome = await deps.fetch(request);
    } catch (err) {
      await this.failed(feed, err);
      return;
    }
    // cut short by the stop, not by the feed: no heartbeat, the feed is polled again as it was due
    if (outcome.kind === 'error' && this.options.signal?.aborted) {
      await deps.store.releaseFeed(feed.id, deps.workerId).catch(() => undefined);
      return;
    }
    const task = this.processFeed(feed, request, outcome, startedAt).finally(() => {
      this.processing.delete(task);
    });
    this.processing.add(task);
  }

  private async processFeed(
    feed: StoredFeed,
    request: FetchRequest,
    outcome: FetchOutcome,
    startedAt: Date,
  ): Promise<void> {
    const { deps } = this;
    try {
      const stored = await processOutcome(deps, feed, request, outcome, startedAt);
      this.count(feed, stored.heartbeat.status, stored.insertedIds.length, stored.updatedIds.length);
      deps.log.info(
        {
          feedId: feed.id,
          url: feed.url,
          status: stored.heartbeat.status,
          newCount: stored.insertedIds.length,
          durationMs: stored.heartbeat.durationMs,
        },
        'refreshed',
      );
    } catch (err) {
      await this.failed(feed, err);
    }
  }

  // a bug or a store failure in one feed: log it, give the feed back, carry on with the others
  private async failed(feed: StoredFeed, err: unknown): Promise<void> {
    const { deps } = this;
    deps.log.error({ feedId: feed.id, url: feed.url, err }, 'poll: refreshing the feed failed');
    await deps.store.releaseFeed(feed.id, deps.workerId).catch(() => undefined);
    this.count(feed, 'fetch_error', 0, 0);
  }

  private count(feed: StoredFeed, status: HeartbeatStatus, inserted: number, updated: number): void {
    this.summary.feeds++;
    this.summary.byStatus[status] = (this.summary.byStatus[status] ?? 0) + 1;
    this.summary.newEntries += inserted;
    this.summary.updatedEntries += updated;
    this.options.onProgress?.({ feed, status, done: this.summary.feeds, newCount: inserted });
  }
}
