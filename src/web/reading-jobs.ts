import { RefreshJobs, UndoLog } from '../reading/index.js';
import type { WebContext } from './env.js';

// The web app's own reading state, in memory: its mark-all undo log and its background refreshes
// (the reading module decides what they do; each app keeps its own).

const UNDO_LOGS = new WeakMap<WebContext, UndoLog>();
const REFRESH_JOBS = new WeakMap<WebContext, RefreshJobs>();

/** The undo log of one web app. */
export function undoLogOf(ctx: WebContext): UndoLog {
  let log = UNDO_LOGS.get(ctx);
  if (!log) {
    log = new UndoLog();
    UNDO_LOGS.set(ctx, log);
  }
  return log;
}

/** The refresh jobs of one web app. */
export function refreshJobsOf(ctx: WebContext): RefreshJobs {
  let jobs = REFRESH_JOBS.get(ctx);
  if (!jobs) {
    jobs = new RefreshJobs(ctx.deps);
    REFRESH_JOBS.set(ctx, jobs);
  }
  return jobs;
}
