/**
 * A read of this many milliseconds or more goes to a read thread from then on; below it, it runs on the
 * main connection, where it costs less than handing it to a thread (about 0.1-0.3 ms on two cores).
 */
export const INLINE_BELOW_MS = 1;

// Statements are told apart by their SQL text; a bounded number is remembered, the least recently used
// forgotten (and then sent to a thread again until timed).
const REMEMBERED = 512;

/**
 * Each run after a slow one lowers the remembered time by this factor: a statement slow once (the first
 * read of a cold page cache) runs inline again after a few dozen fast runs in a thread; one that is
 * slow every time or every few times (a search through many matches) stays in the threads.
 */
const DECAY = 0.9;

/**
 * A decaying slowest time for each read statement (by its SQL text, whatever its parameters), and where
 * the statement runs next. One lately seen at `inlineBelowMs` or more runs in a read thread, so that a
 * slow read (a search through many matches, a page of statistics) does not hold the event loop again;
 * one lately fast runs inline. A statement not yet timed runs in a thread once the threads have started
 * (the first slow read starts them), inline before: a process whose reads are all fast never starts a
 * thread.
 */
export class ReadTimes {
  readonly #slowest = new Map<string, number>();

  constructor(private readonly inlineBelowMs = INLINE_BELOW_MS) {}

  /** Where the statement runs next: inline, or in a read thread. */
  route(sql: string, threadsStarted: boolean): 'inline' | 'thread' {
    const slowest = this.#slowest.get(sql);
    if (slowest === undefined) return threadsStarted ? 'thread' : 'inline';
    return slowest < this.inlineBelowMs ? 'inline' : 'thread';
  }

  /** Records one run of the statement. */
  record(sql: string, ms: number): void {
    const before = this.#slowest.get(sql);
    const slowest = before === undefined ? ms : Math.max(ms, before * DECAY);
    this.#slowest.delete(sql);
    if (this.#slowest.size >= REMEMBERED) this.#slowest.delete(this.#slowest.keys().next().value as string);
    this.#slowest.set(sql, slowest);
  }
}
