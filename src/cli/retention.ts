import { ConfigError } from '../config.js';
import type { Logger } from '../log.js';
import type { RetentionPolicy, Store } from '../store/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often `serve` removes old entries, and how many at most per run (small runs, never a long stall). */
const RETENTION_EVERY_MS = 60 * 60 * 1000;
const RETENTION_PER_RUN = 5000;
const RETENTION_BATCH = 200;

/** A whole number of at least `min` from an environment variable, else `fallback`; a bad value throws. */
function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(name, `config: ${name} must be a whole number of at least ${min}, not "${text}"`);
  return value;
}

/**
 * The retention policy of TIDINGS_RETENTION_DAYS (default 60; 0 turns retention off: undefined) and
 * TIDINGS_RETENTION_KEEP_PER_FEED (default 200) at `now`.
 */
export function retentionPolicy(
  env: NodeJS.ProcessEnv,
  now: Date,
  options: { maxEntries?: number } = {},
): RetentionPolicy | undefined {
  const days = wholeNumber(env, 'TIDINGS_RETENTION_DAYS', 60, 0);
  if (days === 0) return undefined;
  return {
    olderThan: new Date(now.getTime() - days * DAY_MS).toISOString(),
    keepPerFeed: wholeNumber(env, 'TIDINGS_RETENTION_KEEP_PER_FEED', 200, 1),
    batchSize: RETENTION_BATCH,
    maxEntries: options.maxEntries,
    now: now.toISOString(),
  };
}

/** Runs retention every hour until `signal` aborts (serve); a failed run is logged and tried again later. */
export function startRetention(store: Store, env: NodeJS.ProcessEnv, log: Logger, signal: AbortSignal): void {
  const run = async () => {
    try {
      const policy = retentionPolicy(env, new Date(), { maxEntries: RETENTION_PER_RUN });
      if (policy === undefined) return;
      const { removed } = await store.entries.applyRetention(policy);
      if (removed > 0) log.info({ removed }, 'retention removed old read entries');
    } catch (error) {
      log.warn({ err: error }, 'retention failed');
    }
  };
  const timer = setInterval(run, RETENTION_EVERY_MS);
  timer.unref();
  signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
