import type { PollDeps } from './deps.js';

/**
 * How long a claimed feed stays leased without news from the run that claimed it. A run renews the
 * leases of the feeds it holds every third of this while it works, so that a fetch or a queue of any
 * length keeps them; a run that crashed (or cannot write any more: a full disk) stops renewing, and its
 * feeds are free for the next run within this time, well before the next scheduled one.
 */
export const LEASE_MS = 60_000;

/**
 * The feeds a polling run holds under its lease, and the round it takes part in: renewed while the run
 * works, the feeds given back when it stops short.
 */
export class Leases {
  private readonly held = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  /** The run's polling round (store PollRound's key), kept open while the run works. */
  round: string | undefined;

  constructor(
    private readonly deps: Pick<PollDeps, 'store' | 'workerId' | 'now' | 'log'>,
    readonly leaseMs: number = LEASE_MS,
  ) {}

  /** Renews the held leases every third of the lease from now on (the timer keeps no process alive). */
  start(): void {
    this.timer ??= setInterval(() => void this.renew(), Math.max(Math.floor(this.leaseMs / 3), 10));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  hold(id: number): void {
    this.held.add(id);
  }

  /** The feed's lease is gone (stored, released): it is no longer renewed. */
  drop(id: number): void {
    this.held.delete(id);
  }

  /** The expiry a lease taken or renewed now gets. */
  expiryFromNow(): string {
    return new Date(this.deps.now().getTime() + this.leaseMs).toISOString();
  }

  /**
   * Moves the expiry of every held lease, and of the round, to a lease from now; a failure is logged, the
   * leases then lapse.
   */
  async renew(): Promise<void> {
    if (this.renewing || (this.held.size === 0 && this.round === undefined)) return;
    this.renewing = true;
    try {
      const expiry = this.expiryFromNow();
      if (this.held.size > 0)
        await this.deps.store.polling.renewLeases([...this.held], this.deps.workerId, expiry);
      if (this.round !== undefined) await this.deps.store.polling.renewRound(this.round, expiry);
    } catch (err) {
      this.deps.log.warn({ err, feeds: this.held.size }, 'poll: renewing the leases failed');
    } finally {
      this.renewing = false;
    }
  }

  /**
   * Gives every held feed back at once, unclaimed in the round, since none was stored (best effort: when
   * the store cannot write, the leases lapse).
   */
  async releaseAll(): Promise<void> {
    const ids = [...this.held];
    this.held.clear();
    try {
      const round = this.round;
      await this.deps.store.polling.releaseMany(
        ids,
        this.deps.workerId,
        round ? { unclaimRound: round } : {},
      );
    } catch (err) {
      this.deps.log.warn({ err, feeds: ids.length }, 'poll: giving the claimed feeds back failed');
    }
  }
}
