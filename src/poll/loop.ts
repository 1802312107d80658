import type { PollDeps } from './deps.js';
import { pollOnce } from './poller.js';

// Between runs the loop sleeps until the next feed is due, checking at least this often for new ones.
const MAX_IDLE_MS = 30_000;
const MIN_IDLE_MS = 1_000;

/** Polls due feeds until the signal aborts: `tidings worker`, and the poller inside `tidings serve`. */
export async function runPollLoop(deps: PollDeps, signal: AbortSignal): Promise<void> {
  deps.log.info({ workerId: deps.workerId }, 'poller started');
  while (!signal.aborted) {
    try {
      const summary = await pollOnce(deps, { signal });
      if (summary.feeds > 0) deps.log.info({ ...summary }, 'poll run done');
    } catch (err) {
      deps.log.error({ err }, 'poll: the run failed; trying again');
    }
    await sleep(await idleMs(deps), signal);
  }
  deps.log.info({ workerId: deps.workerId }, 'poller stopped');
}

async function idleMs(deps: PollDeps): Promise<number> {
  const nextAt = await deps.store.nextCheckTime().catch(() => undefined);
  const next = nextAt === undefined ? Number.NaN : Date.parse(nextAt);
  const now = deps.now().getTime();
  if (!Number.isFinite(next)) return MAX_IDLE_MS;
  return Math.min(Math.max(next - now, MIN_IDLE_MS), MAX_IDLE_MS);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    // an abort that came during the run has already fired: it must not be waited for
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
