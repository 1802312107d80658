import type { PollDeps } from './deps.js';
import { pollOnce } from './poller.js';

// Between runs the loop sleeps until the next feed is due, checking at least this often for new ones.
const MAX_IDLE_MS = 30_000;
const MIN_IDLE_MS = 1_000;
// After a run the store ended (a full disk, a lost connection), the loop waits this long and tries again.
const RETRY_MS = 30_000;

export interface PollLoopOptions {
  /** The wait after a failed run (default 30 s). */
  retryMs?: number;
}

/**
 * Polls due feeds until the signal aborts: `tidings worker`, and the poller inside `tidings serve`. A run
 * that fails (the store cannot be written) is logged and tried again after `retryMs`: the loop never ends
 * for it.
 */
export async function runPollLoop(
  deps: PollDeps,
  signal: AbortSignal,
  options: PollLoopOptions = {},
): Promise<void> {
  deps.log.info({ workerId: deps.workerId }, 'poller started');
  while (!signal.aborted) {
    let waitMs: number;
    try {
      const summary = await pollOnce(deps, { signal });
      if (summary.feeds > 0) deps.log.info({ ...summary }, 'poll run done');
      // WebSub leases renewed, feeds no one follows unsubscribed (issue 26)
      await deps.push?.keep();
      waitMs = await idleMs(deps);
    } catch (err) {
      waitMs = options.retryMs ?? RETRY_MS;
      deps.log.error({ err, retryInMs: waitMs }, 'poll: the run failed; trying again');
    }
    await sleep(waitMs, signal);
  }
  deps.log.info({ workerId: deps.workerId }, 'poller stopped');
}

async function idleMs(deps: PollDeps): Promise<number> {
  const nextAt = await deps.store.polling.nextCheckTime().catch(() => undefined);
  const next = nextAt === undefined ? Number.NaN : Date.parse(nextAt);
  const now = deps.now().getTime();
  if (!Number.isFinite(next)) return MAX_IDLE_MS;
  return Math.min(Math.max(next - now, MIN_IDLE_MS), MAX_IDLE_MS);
}

/** Resolves after `ms`, or at once when the signal aborts; leaves no listener on the signal behind. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    // an abort that came during the run has already fired: it must not be waited for
    if (signal.aborted) {
      resolve();
      return;
    }
    // the listener goes when the wait ends: one left behind per wait made `serve` warn of a leak
    // (MaxListenersExceededWarning) after ten idle waits
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
