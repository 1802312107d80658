// Retries of a message that could not be sent (issue 25): the first within 10 s, so that a receiver that
// blinked (a restart, a deploy) gets it at once, then longer and longer, for up to a day.

/** The wait after the 1st, 2nd, ... failed attempt; every later one waits as long as the last. */
export const RETRY_DELAYS_MS: readonly number[] = [
  10_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  4 * 3600_000,
];

/** A message is tried for this long after it was queued, then given up (kept, marked failed). */
export const GIVE_UP_AFTER_MS = 24 * 3600_000;

/**
 * When to try a message again after its `attempts`-th failed attempt (1 for the first), or undefined when
 * that would fall more than a day after it was queued: give it up.
 */
export function retryTime(createdAt: string, attempts: number, now: Date): string | undefined {
  const index = Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1;
  const next = now.getTime() + (RETRY_DELAYS_MS[index] as number);
  if (next > Date.parse(createdAt) + GIVE_UP_AFTER_MS) return undefined;
  return new Date(next).toISOString();
}
