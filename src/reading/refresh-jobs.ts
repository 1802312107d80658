import { randomBytes } from 'node:crypto';
import type { Channel, HeartbeatStatus } from '../model/index.js';
import { pollOnce } from '../poll/index.js';
import type { ReadingDeps } from './deps.js';

/** A feed that failed in a refresh, as its page lists it (with a link to the feed's health page). */
export interface RefreshFailure {
  feedId: number;
  title: string;
  status: HeartbeatStatus;
}

/** One "Refresh now" running in the background, as its progress page shows it. */
export interface RefreshJob {
  id: string;
  /** Where it was started: the channel's uid and name (the page links back). */
  channel: { uid: string; name: string };
  total: number;
  done: number;
  newEntries: number;
  failed: RefreshFailure[];
  finished: boolean;
  /** Settles when the run ends (tests wait on it; pages never do). */
  settled: Promise<void>;
}

const KEEP_JOBS = 20;
const FAILED: ReadonlySet<HeartbeatStatus> = new Set([
  'fetch_error',
  'parse_error',
  'encoding_error',
  'gone',
]);

/**
 * Refreshes run in the server process in the background (through poll), so that one slow feed never
 * holds a page for 30 s: the button answers at once with a page that shows the progress and then lists
 * what failed. Jobs live in memory; the last 20 are kept.
 */
export class RefreshJobs {
  readonly #jobs = new Map<string, RefreshJob>();

  constructor(private readonly deps: Pick<ReadingDeps, 'poll' | 'log'>) {}

  /** Starts fetching these feeds now, whatever their schedule; returns the job at once. */
  start(channel: { uid: string; name: string }, feedIds: readonly number[]): RefreshJob {
    const job: RefreshJob = {
      id: randomBytes(9).toString('base64url'),
      channel,
      total: feedIds.length,
      done: 0,
      newEntries: 0,
      failed: [],
      finished: false,
      settled: Promise.resolve(),
    };
    job.settled = pollOnce(this.deps.poll, {
      feedIds,
      force: true,
      onProgress: ({ feed, status, newCount }) => {
        job.done += 1;
        job.newEntries += newCount;
        if (FAILED.has(status)) job.failed.push({ feedId: feed.id, title: feed.title ?? feed.url, status });
      },
    })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'reading: a refresh failed'))
      .then(() => {
        job.finished = true;
      });
    this.#jobs.set(job.id, job);
    for (const id of this.#jobs.keys()) if (this.#jobs.size > KEEP_JOBS) this.#jobs.delete(id);
    return job;
  }

  get(id: string): RefreshJob | undefined {
    return this.#jobs.get(id);
  }
}

/**
 * The feeds a "Refresh now" fetches: the one feed shown (which the channel follows), else every feed
 * the channel follows.
 */
export async function feedsToRefresh(
  deps: Pick<ReadingDeps, 'store'>,
  channel: Channel,
  feedId?: number,
): Promise<number[]> {
  if (feedId !== undefined) return [feedId];
  return (await deps.store.channels.listSubscriptions(channel.id)).map((s) => s.feedId);
}
