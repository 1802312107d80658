import type { FetchOutcome, FetchRequest } from '../fetch/index.js';
import type { Logger } from '../log.js';
import type { StoredFeed } from '../model/index.js';
import type { FeedPatch, Store } from '../store/index.js';
import type { PollHooks } from './hooks.js';
import type { Preparer } from './parse-pool.js';

/** The poller's settings: the parts of Config it uses. */
export interface PollConfig {
  parseWorkers?: number;
  parseTimeoutMs?: number;
  maxEntriesPerFeed?: number;
  pollIntervalSeconds: number;
  /** How many times the interval cadence and hints may stretch it (TIDINGS_ADAPTIVE_MAX); default 4. */
  adaptiveMax?: number | undefined;
  allowPrivateAddresses: boolean;
  concurrency: number;
  perHostConcurrency: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Look for feed icons while polling (poll/feed-icon.ts); on unless false. */
  feedIcons?: boolean;
  /** Failed polls in a row that make a feed.failing alert (TIDINGS_ALERT_AFTER); default 3. */
  alertAfter?: number;
  /** Where tidings is reached (TIDINGS_BASE_URL): alerts link to the feed's page under it. */
  baseUrl?: string;
}

/** What polling needs, passed in so that tests can give a clock, a fetcher and a store of their own. */
export interface PollDeps {
  store: Store;
  config: PollConfig;
  hooks: PollHooks;
  log: Logger;
  /** Names this process's leases. */
  workerId: string;
  now: () => Date;
  fetch: (request: FetchRequest) => Promise<FetchOutcome>;
  /** Parses fetched documents (in worker threads, or in this thread). */
  preparer: Preparer;
  /** Looks for the icons of polled feeds in the background; without it no icon is looked for. */
  icons?: IconQueue;
  /** WebSub (issue 26): set when push is on (TIDINGS_BASE_URL, under `serve` and `worker`). */
  push?: PushPort;
}

/** A WebSub callback's answer: the HTTP status, and the text/plain body (the echoed challenge). */
export interface PushAnswer {
  status: number;
  body: string;
}

/**
 * What polling and the callback route ask of WebSub (WebSub, websub/websub.ts): named here, not imported,
 * since WebSub takes its dependencies from PollDeps.
 */
export interface PushPort {
  /**
   * After a poll is decided, before it is stored: notes the hub and topic the fetch announced (into the
   * patch), subscribes in the background when they are new, and relaxes the schedule while push works.
   */
  polled(
    feed: StoredFeed,
    outcome: FetchOutcome,
    patch: FeedPatch,
    newCount: number,
    now: Date,
  ): Promise<void>;
  /** A hub's verification of intent (GET /websub/<token>). */
  verify(token: string, query: Record<string, string>): Promise<PushAnswer>;
  /** A hub's content distribution (POST /websub/<token>): answered at once, processed after. */
  deliver(token: string, headers: Record<string, string>, body: Uint8Array): Promise<PushAnswer>;
  /** Renews leases, unsubscribes feeds no one follows, retries failures: what is due now. */
  keep(): Promise<void>;
  /** Resolves once the background work started so far (requests to hubs, deliveries) is done. */
  idle(): Promise<void>;
}

/**
 * What polling asks of the background icon lookups (IconLookups, icon-lookups.ts): named here, not
 * imported, since the lookups take their dependencies from PollDeps.
 */
export interface IconQueue {
  /** Queues a look for a feed's icon, unless one was looked for lately. */
  request(feed: StoredFeed): void;
  /** Resolves once every queued lookup is done. */
  idle(): Promise<void>;
  /** Stops taking lookups and waits up to `graceMs` for those under way. */
  close(graceMs?: number): Promise<void>;
}
