import type { FetchOutcome, FetchRequest } from '../fetch/index.js';
import { redactSecrets } from '../log.js';
import type { HeartbeatStatus, StoredFeed } from '../model/index.js';
import { storeFault, UNFOLLOWED_KEEP_DAYS } from '../store/index.js';
import type { PollDeps } from './deps.js';
import { HostLimit } from './host-limit.js';
import { Leases } from './leases.js';
import { buildRequest, processOutcome } from './refresh.js';

export interface PollRunOptions {
  /** Poll every feed now, not only those due (never one that is paused, gone, or under a Retry-After). */
  force?: boolean;
  /** Only these feeds. */
  feedIds?: readonly number[];
  /** Called after each feed, for progress on stderr; `total` is what was due when the run began (or `done`). */
  onProgress?: (event: PollProgress) => void;
  signal?: AbortSignal;
  /** How long a claimed feed stays leased without renewal (default LEASE_MS, a minute). */
  leaseMs?: number;
  /**
   * Answers fetched just before for these feeds (by id), processed instead of fetching them again: the
   * first poll of a feed followed now takes the fetch that found it (follow's autodiscovery), so that
   * following a feed costs its publisher one request. Used only where the answer is of the feed's URL.
   */
  fetched?: ReadonlyMap<number, FetchOutcome>;
}

export interface PollProgress {
  feed: StoredFeed;
  status: HeartbeatStatus;
  done: number;
  total: number;
  newCount: number;
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
 * documents wait to be processed. One feed's failure never stops the run; the store failing (a full
 * disk, a lost connection) does: nothing more is claimed or started, what was claimed is given back, and
 * pollOnce rejects with a StoreError 'unavailable' once the work under way has ended.
 */
export async function pollOnce(deps: PollDeps, options: PollRunOptions = {}): Promise<PollSummary> {
  const started = Date.now();
  // A whole run (not a one-feed refresh) also forgets the feeds nobody has followed for a while.
  if (options.feedIds === undefined)
    await deps.store.feeds.sweepUnfollowed(deps.now().toISOString(), UNFOLLOWED_KEEP_DAYS);
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
  /** Fetches in flight, each with the controller that aborts it when the run stops. */
  private readonly running = new Map<Promise<void>, AbortController>();
  /** Fetched documents being processed. */
  private readonly processing = new Set<Promise<void>>();
  private readonly maxProcessing: number;
  private exhausted = false;
  private stopped = false;
  /** The store failure that ended the run early. */
  private failure: unknown;
  private readonly taken = new Set<number>();
  /** The claim under way, if any. */
  private claiming: Promise<void> | undefined;
  private readonly leases: Leases;
  /** Feeds checked since are not claimed: the start of this run, or of the round it joined. */
  private startedAt: string;
  /** The polling round of a whole run (PollRound's key); undefined when the run polls named feeds. */
  private round: string | undefined;
  private readonly batch: number;
  private total = 0;

  constructor(
    private readonly deps: PollDeps,
    private readonly options: PollRunOptions,
  ) {
    this.hosts = new HostLimit(deps.config.perHostConcurrency);
    this.startedAt = deps.now().toISOString();
    this.batch = Math.max(deps.config.concurrency * 4, 16);
    this.maxProcessing = deps.config.concurrency * 2;
    this.leases = new Leases(deps, options.leaseMs);
  }

  async execute(): Promise<void> {
    // One listener on the caller's signal per run; each fetch gets a signal of its own (a listener per
    // fetch on a shared signal passed 10 and made `serve` warn of a leak: MaxListenersExceededWarning).
    const onAbort = () => this.stop();
    this.options.signal?.addEventListener('abort', onAbort, { once: true });
    if (this.options.signal?.aborted) this.stop();
    this.leases.start();
    try {
      if (this.options.feedIds === undefined && !this.stopped) await this.joinRound();
      if (this.options.onProgress && !this.stopped) await this.countDue();
      await this.work();
      // nothing was left to claim: the round's work is handed out, and a run starting now begins the next
      if (this.round !== undefined && !this.stopped) await this.closeRound(this.round);
    } finally {
      this.leases.stop();
      this.options.signal?.removeEventListener('abort', onAbort);
    }
    if (this.failure !== undefined) {
      await this.leases.releaseAll();
      throw this.failure;
    }
  }

  private async work(): Promise<void> {
    for (;;) {
      // Claims ahead (while the queue still holds two rounds of fetches) and goes on starting fetches
      // meanwhile: a claim waits for the store's connection behind a group commit, and the fetch slots
      // that freed during that wait stayed idle (issue 22).
      const { concurrency } = this.deps.config;
      if (this.claiming === undefined && !this.exhausted && this.queue.length < concurrency * 2)
        this.claiming = this.claim().finally(() => {
          this.claiming = undefined;
        });
      const hasRoom = this.processing.size < this.maxProcessing;
      if (hasRoom) this.startWhatFits();
      if (this.running.size === 0 && hasRoom) {
        if (this.queue.length === 0 && this.exhausted && this.claiming === undefined) break;
        if (this.queue.length > 0 && this.exhausted) this.startAnyway();
      }
      const claiming = this.claiming === undefined ? [] : [this.claiming];
      const waits = [...this.running.keys(), ...this.processing, ...claiming];
      if (waits.length > 0) await Promise.race(waits);
    }
    await Promise.all(this.processing);
  }

  /**
   * A whole run takes part in the polling round of its kind (issue 22: three `poll --once` started
   * together polled some feeds three times). Runs that overlap share the round, its start and its
   * claims, so each feed is claimed once between them, however their starts, leases and releases fall.
   */
  private async joinRound(): Promise<void> {
    try {
      const round = await this.deps.store.polling.joinRound(
        this.options.force ? 'force' : 'due',
        this.deps.now().toISOString(),
        this.leases.expiryFromNow(),
      );
      this.round = round.key;
      this.leases.round = round.key;
      if (round.startedAt < this.startedAt) this.startedAt = round.startedAt;
    } catch (err) {
      this.fail(storeFault(err, 'joining the polling round') ?? err);
    }
  }

  private async closeRound(round: string): Promise<void> {
    this.leases.round = undefined;
    try {
      await this.deps.store.polling.closeRound(round);
    } catch (err) {
      // the round then closes when its lease runs out
      this.deps.log.warn({ err, round }, 'poll: closing the polling round failed');
    }
  }

  // Stopping (SIGINT, SIGTERM, a store failure): nothing more is claimed or started, the feeds claimed but
  // not started go back to the other workers at once (not when their lease runs out), and the fetches under
  // way are aborted: what was fetched before is still processed and stored. The round stays open: a run
  // started meanwhile (or soon after) takes what was given back.
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.exhausted = true;
    const unstarted = this.queue.splice(0).map((feed) => feed.id);
    for (const id of unstarted) this.leases.drop(id);
    void this.deps.store.polling
      .releaseMany(unstarted, this.deps.workerId, this.unclaim())
      .catch(() => undefined);
    for (const controller of this.running.values()) controller.abort();
  }

  /** What a release of feeds this run did not poll passes: their claim in the round goes too. */
  private unclaim(): { unclaimRound?: string } {
    return this.round === undefined ? {} : { unclaimRound: this.round };
  }

  /** Ends the run because the store failed; the first failure is the one reported. */
  private fail(error: unknown): void {
    if (this.failure === undefined) this.failure = error;
    this.deps.log.error({ err: error }, 'poll: the store failed; stopping the run');
    this.stop();
  }

  private async countDue(): Promise<void> {
    try {
      this.total = await this.deps.store.polling.countClaimable({
        now: this.deps.now().toISOString(),
        ...(this.options.force ? { force: true } : {}),
        ...(this.options.feedIds ? { feedIds: this.options.feedIds } : {}),
        ...(this.round !== undefined ? { round: this.round } : {}),
        notCheckedSince: this.startedAt,
      });
    } catch (err) {
      this.fail(storeFault(err, 'counting the due feeds') ?? err);
    }
  }

  private async claim(): Promise<void> {
    let claimed: StoredFeed[];
    try {
      claimed = await this.deps.store.polling.claimDue({
        now: this.deps.now().toISOString(),
        limit: this.batch,
        workerId: this.deps.workerId,
        leaseMs: this.leases.leaseMs,
        ...(this.options.force ? { force: true } : {}),
        ...(this.options.feedIds ? { feedIds: this.options.feedIds } : {}),
        ...(this.round !== undefined ? { round: this.round } : {}),
        notCheckedSince: this.startedAt,
      });
    } catch (err) {
      // one statement: it claimed every feed or none, so nothing is half-claimed
      this.fail(storeFault(err, 'claiming the due feeds') ?? err);
      return;
    }
    if (this.stopped) {
      // the stop came while the claim was under way: give its feeds straight back
      await this.release(
        claimed.map((feed) => feed.id),
        this.unclaim(),
      );
      return;
    }
    if (claimed.length < this.batch) this.exhausted = true;
    // a feed whose processing failed has no new check time: never take it twice in one run
    const fresh = claimed.filter((feed) => !this.taken.has(feed.id));
    if (fresh.length === 0 && claimed.length > 0) this.exhausted = true;
    const again = claimed.filter((feed) => this.taken.has(feed.id)).map((feed) => feed.id);
    if (again.length > 0) void this.release(again);
    for (const feed of fresh) {
      this.taken.add(feed.id);
      this.leases.hold(feed.id);
    }
    this.queue.push(...fresh);
  }

  /**
   * Gives feeds back (best effort: a lease that stays lapses within LEASE_MS); still claimed in the
   * round unless `unclaim` says otherwise, so that no other run of it polls them.
   */
  private async release(ids: number[], unclaim: { unclaimRound?: string } = {}): Promise<void> {
    for (const id of ids) this.leases.drop(id);
    await this.deps.store.polling.releaseMany(ids, this.deps.workerId, unclaim).catch(() => undefined);
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
    const controller = new AbortController();
    const task = this.fetchFeed(feed, controller.signal).finally(() => {
      this.hosts.release(host);
      this.running.delete(task);
    });
    this.running.set(task, controller);
  }

  /** Fetches one feed, then hands the outcome to processing and gives the fetch slot back. */
  private async fetchFeed(feed: StoredFeed, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    const startedAt = deps.now();
    let request: FetchRequest;
    let outcome: FetchOutcome;
    try {
      request = buildRequest(deps, feed, startedAt);
      request.signal = signal;
      const fetched = this.options.fetched?.get(feed.id);
      outcome = fetched?.url === request.url ? fetched : await deps.fetch(request);
    } catch (err) {
      await this.failed(feed, err);
      return;
    }
    // cut short by the stop, not by the feed: no heartbeat, the feed is polled again as it was due
    if (outcome.kind === 'error' && signal.aborted) {
      await this.release([feed.id], this.unclaim());
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
      this.leases.drop(feed.id);
      this.count(feed, stored.heartbeat.status, stored.insertedIds.length, stored.updatedIds.length);
      deps.log.info(
        {
          feedId: feed.id,
          // a feed behind Basic auth is followed as https://user:pass@host/feed: never log the password
          url: redactSecrets(feed.url),
          status: stored.heartbeat.status,
          newCount: stored.insertedIds.length,
          durationMs: stored.heartbeat.durationMs,
        },
        'refreshed',
      );
    } catch (err) {
      // The poll is written in one transaction: it is stored whole or not at all. A store that cannot
      // write (a full disk) fails every feed alike: the run stops rather than fetch on for nothing.
      const fault = storeFault(err, `storing feed ${feed.id}`);
      if (fault !== undefined) this.fail(fault);
      else await this.failed(feed, err);
    }
  }

  // a bug in one feed: log it, give the feed back, carry on with the others
  private async failed(feed: StoredFeed, err: unknown): Promise<void> {
    const url = redactSecrets(feed.url);
    this.deps.log.error({ feedId: feed.id, url, err }, 'poll: refreshing the feed failed');
    await this.release([feed.id]);
    this.count(feed, 'fetch_error', 0, 0);
  }

  private count(feed: StoredFeed, status: HeartbeatStatus, inserted: number, updated: number): void {
    this.summary.feeds++;
    this.summary.byStatus[status] = (this.summary.byStatus[status] ?? 0) + 1;
    this.summary.newEntries += inserted;
    this.summary.updatedEntries += updated;
    const done = this.summary.feeds;
    this.total = Math.max(this.total, done);
    this.options.onProgress?.({ feed, status, done, total: this.total, newCount: inserted });
  }
}
