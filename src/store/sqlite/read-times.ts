/**
 * A read of this many milliseconds or more goes to a read thread from then on; below it, it runs on the
 * main connection, where it costs less than handing it to a thread (about 0.1-0.3 ms on two cores).
 */
export const INLINE_BELOW_MS = 1;

// Statements are told apart by their SQL text; a bounded number is remembered, the least recently used
// forgotten (and then sent to a thread again until timed).
const REMEMBERED = 512;

/**
 * The slowest time seen for each read statement (by its SQL text, whatever its parameters). A statement
 * not yet timed, or ever seen at INLINE_BELOW_MS or more, is slow: it runs in a read thread, so that
 * one slow read (a search through many matches, a page of statistics) never holds the event loop. A
 * statement that was always fast runs inline.
 */
export class ReadTimes {
  readonly #slowest = new Map<string, number>();

  /** True when every run of this statement so far took less than INLINE_BELOW_MS. */
  isFast(sql: string): boolean {
    const slowest = this.#slowest.get(sql);
    return slowest !== undefined && slowest < INLINE_BELOW_MS;
  }

  /** Records one run of the statement. */
  record(sql: string, ms: number): void {
    const slowest = Math.max(ms, this.#slowest.get(sql) ?? 0);
    this.#slowest.delete(sql);
    if (this.#slowest.size >= REMEMBERED) this.#slowest.delete(this.#slowest.keys().next().value as string);
    this.#slowest.set(sql, slowest);
  }
}
