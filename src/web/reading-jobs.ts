import { RefreshJobs, UndoLog } from '../reading/index.js';
import type { WebContext } from './env.js';

// The web app's own reading state, in memory: its mark-all undo logs and its background refreshes
// (the reading module decides what they do; each app keeps its own), one of each per user, so that a
// user's undo token or refresh page means nothing to another.

const UNDO_LOGS = new WeakMap<WebContext, Map<number, UndoLog>>();
const REFRESH_JOBS = new WeakMap<WebContext, Map<number, RefreshJobs>>();

function perUser<T>(
  maps: WeakMap<WebContext, Map<number, T>>,
  ctx: WebContext,
  userId: number,
  make: () => T,
) {
  let byUser = maps.get(ctx);
  if (!byUser) {
    byUser = new Map();
    maps.set(ctx, byUser);
  }
  let value = byUser.get(userId);
  if (value === undefined) {
    value = make();
    byUser.set(userId, value);
  }
  return value;
}

/** The undo log of one user of one web app. */
export function undoLogOf(ctx: WebContext, userId: number): UndoLog {
  return perUser(UNDO_LOGS, ctx, userId, () => new UndoLog());
}

/** The refresh jobs of one user of one web app. */
export function refreshJobsOf(ctx: WebContext, userId: number): RefreshJobs {
  return perUser(REFRESH_JOBS, ctx, userId, () => new RefreshJobs(ctx.deps));
}
