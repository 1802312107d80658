import { randomBytes } from 'node:crypto';
import { importOpml, type SkippedOutline } from '../subscriptions/index.js';
import type { WebDeps } from './deps.js';

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
  /** New feeds fetched so far (the first fetch of each, at once). */
  fetched: number;
  warnings: string[];
  error?: string;
  finishedAt?: string;
}

const KEEP_JOBS = 20;

/**
 * OPML imports run in the background so that a file with thousands of feeds never holds a request
 * open: the upload answers at once with a status page that refreshes itself until the job is done.
 * Jobs live in memory (a restart forgets finished ones; the subscriptions themselves are stored).
 */
export class OpmlJobs {
  private readonly jobs = new Map<string, OpmlJob>();

  constructor(private readonly deps: WebDeps) {}

  /** Starts importing; returns the job at once. */
  start(text: string, fileName: string): OpmlJob {
    const job: OpmlJob = {
      id: randomBytes(9).toString('base64url'),
      fileName,
      startedAt: this.deps.now().toISOString(),
      phase: 'subscribing',
      total: 0,
      subscribed: 0,
      followed: 0,
      added: 0,
      alreadyFollowed: 0,
      failed: 0,
      skipped: [],
      fetched: 0,
      warnings: [],
    };
    this.jobs.set(job.id, job);
    for (const old of [...this.jobs.keys()].slice(0, Math.max(0, this.jobs.size - KEEP_JOBS)))
      this.jobs.delete(old);
    void this.run(job, text);
    return job;
  }

  get(id: string): OpmlJob | undefined {
    return this.jobs.get(id);
  }

  /** The most recent jobs first. */
  list(): OpmlJob[] {
    return [...this.jobs.values()].reverse();
  }

  private async run(job: OpmlJob, text: string): Promise<void> {
    try {
      const result = await importOpml(this.deps, text, {
        fetchNow: true,
        onProgress: ({ phase, done, total }) => {
          if (phase === 'following') {
            job.total = total;
            job.subscribed = done;
          } else {
            job.phase = 'fetching';
            job.added = total;
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
      this.deps.log.error({ err: error, job: job.id }, 'web: OPML import failed');
    }
    job.finishedAt = this.deps.now().toISOString();
  }
}
