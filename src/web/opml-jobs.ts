import { randomBytes } from 'node:crypto';
import { importOpml, type SkippedOutline } from '../subscriptions/index.js';
import type { UserDeps } from './deps.js';

/** One OPML import running in the background, as its status page shows it. */
export interface OpmlJob {
  id: string;
  fileName: string;
  startedAt: string;
  phase: 'subscribing' | 'fetching' | 'done' | 'failed';
  total: number;
  subscribed: number;
  /** Outlines followed (`added` of them new feeds), followed already, and that failed: they add up to `total`. */
  followed: number;
  added: number;
  alreadyFollowed: number;
  failed: number;
  /** Each outline not followed, by line and reason. */
  skipped: SkippedOutline[];
  /** New feeds fetched so far (the first fetch of each, at once), of `toFetch`. */
  fetched: number;
  /** The new feeds to fetch: `added` once done is those of them that were feeds (a page that links to none is not kept). */
  toFetch: number;
  warnings: string[];
  error?: string;
  finishedAt?: string;
}

/** The jobs kept per user. */
const KEEP_JOBS = 20;

/**
 * OPML imports run in the background so that a file with thousands of feeds never holds a request
 * open: the upload answers at once with a status page that refreshes itself until the job is done.
 * Jobs live in memory (a restart forgets finished ones; the subscriptions themselves are stored), each
 * user's apart: a user sees only their own imports.
 */
export class OpmlJobs {
  private readonly jobs = new Map<number, Map<string, OpmlJob>>();

  /** Starts importing into the channels of `deps.store`'s user; returns the job at once. */
  start(deps: UserDeps, text: string, fileName: string): OpmlJob {
    const job: OpmlJob = {
      id: randomBytes(9).toString('base64url'),
      fileName,
      startedAt: deps.now().toISOString(),
      phase: 'subscribing',
      total: 0,
      subscribed: 0,
      followed: 0,
      added: 0,
      alreadyFollowed: 0,
      failed: 0,
      skipped: [],
      fetched: 0,
      toFetch: 0,
      warnings: [],
    };
    const mine = this.jobs.get(deps.store.userId) ?? new Map<string, OpmlJob>();
    this.jobs.set(deps.store.userId, mine);
    mine.set(job.id, job);
    for (const old of [...mine.keys()].slice(0, Math.max(0, mine.size - KEEP_JOBS))) mine.delete(old);
    void this.run(deps, job, text);
    return job;
  }

  /** One of this user's jobs. */
  get(userId: number, id: string): OpmlJob | undefined {
    return this.jobs.get(userId)?.get(id);
  }

  /** This user's most recent jobs first. */
  list(userId: number): OpmlJob[] {
    return [...(this.jobs.get(userId)?.values() ?? [])].reverse();
  }

  private async run(deps: UserDeps, job: OpmlJob, text: string): Promise<void> {
    try {
      const result = await importOpml(deps, text, {
        fetchNow: true,
        onProgress: ({ phase, done, total }) => {
          if (phase === 'following') {
            job.total = total;
            job.subscribed = done;
          } else {
            job.phase = 'fetching';
            job.toFetch = total;
            job.fetched = done;
          }
        },
      });
      Object.assign(job, {
        warnings: result.warnings,
        total: result.total,
        followed: result.followed,
        added: result.added,
        alreadyFollowed: result.alreadyFollowed,
        failed: result.failed,
        skipped: result.skipped,
      });
      job.phase = 'done';
    } catch (error) {
      job.phase = 'failed';
      job.error = error instanceof Error ? error.message : String(error);
      deps.log.error({ err: error, job: job.id }, 'web: OPML import failed');
    }
    job.finishedAt = deps.now().toISOString();
  }
}
