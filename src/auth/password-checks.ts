/**
 * Bounds the password checks of the whole process: at most `maxRunning` at once and `maxWaiting` queued,
 * beyond that a check is refused at once. A check is scrypt (32 MiB, about 0.1 s) in libuv's thread pool
 * of four threads, which DNS lookups and file reads share: during a burst of logins from many addresses
 * the owner's own login waited 17 s behind them (issue 22). With two checks at once and eight waiting, a
 * login that is let in waits about five checks' time at most, and one that is not is told so at once.
 * A check of a client that signed in before (`priority`) goes ahead of the others, with places of its own.
 */
export class PasswordChecks {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly waitingFirst: Array<() => void> = [];
  /** How many checks were started (tests and metrics). */
  started = 0;

  constructor(
    readonly maxRunning = 2,
    readonly maxWaiting = 8,
  ) {}

  /**
   * Runs `check` when a place is free; 'busy' at once when the running and the waiting places are all
   * taken. A `priority` check waits ahead of the others, in a line of `maxWaiting` places of its own.
   */
  async run<T>(check: () => Promise<T>, options: { priority?: boolean } = {}): Promise<T | 'busy'> {
    if (this.running >= this.maxRunning) {
      const line = options.priority ? this.waitingFirst : this.waiting;
      if (line.length >= this.maxWaiting) return 'busy';
      await new Promise<void>((resolve) => line.push(resolve));
    } else {
      this.running++;
    }
    this.started++;
    try {
      return await check();
    } finally {
      // the place passes to the next in line, or is freed
      const next = this.waitingFirst.shift() ?? this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
