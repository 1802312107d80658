/**
 * A read whose typical time is this many milliseconds or more goes to a read thread; below it, it runs on
 * the main connection, where it costs less than handing it to a thread (about 0.1-0.3 ms on two cores).
 */
export const INLINE_BELOW_MS = 1;

// Statements are told apart by their SQL text; a bounded number is remembered, the least recently used
// forgotten (and then sent to a thread again until timed).
const REMEMBERED = 512;

/**
 * The weight of each new run in a statement's typical time (a moving average). One slow run among fast
 * ones does not move a statement: under load a thread is often preempted in the middle of a read, and a
 * fast statement sent to a thread for that cost every request a hand-over (bench:serve's timeline at 32
 * clients lost a third of its throughput). A statement slow every other run, or every run, moves.
 */
const WEIGHT = 0.25;

/**
 * The typical time of each read statement (by its SQL text, whatever its parameters), and where the
 * statement runs next. One typically taking `inlineBelowMs` or more runs in a read thread, so that a slow
 * read (a search through many matches, a page of statistics) does not hold the event loop again; one
 * typically fast runs inline. A statement not yet timed runs in a thread once the threads have started
 * (the first slow read starts them), inline before: a process whose reads are all fast never starts a
 * thread. Its first run is its typical time until more are seen.
 */
export class ReadTimes {
  readonly #typical = new Map<string, number>();

  constructor(private readonly inlineBelowMs = INLINE_BELOW_MS) {}

  /** Where the statement runs next: inline, or in a read thread. */
  route(sql: string, threadsStarted: boolean): 'inline' | 'thread' {
    const typical = this.#typical.get(sql);
    if (typical === undefined) return threadsStarted ? 'thread' : 'inline';
    return typical < this.inlineBelowMs ? 'inline' : 'thread';
  }

  /** Records one run of the statement. */
  record(sql: string, ms: number): void {
    const before = this.#typical.get(sql);
    const typical = before === undefined ? ms : before + WEIGHT * (ms - before);
    this.#typical.delete(sql);
    if (this.#typical.size >= REMEMBERED) this.#typical.delete(this.#typical.keys().next().value as string);
    this.#typical.set(sql, typical);
  }
}
