/**
 * Counts failed logins per client address in memory: after `maxFailures` within `windowMs`, further
 * attempts are refused until the oldest failure leaves the window. A restart forgets the counts, which
 * is acceptable for one owner; it keeps password guessing at a few tries per quarter hour.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 15 * 60_000,
    // bounds the memory an attacker with many addresses can make us hold
    private readonly maxClients = 10_000,
  ) {}

  /** Seconds until this client may try again; 0 when it may try now. */
  retryAfterSeconds(client: string, nowMs: number): number {
    const recent = this.recent(client, nowMs);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures] as number;
    return Math.max(1, Math.ceil((oldest + this.windowMs - nowMs) / 1000));
  }

  recordFailure(client: string, nowMs: number): void {
    const recent = this.recent(client, nowMs);
    recent.push(nowMs);
    this.failures.delete(client);
    this.failures.set(client, recent);
    if (this.failures.size > this.maxClients) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /**
   * One login attempt: refused unchecked while the client must wait, else `check` decides and the
   * outcome is recorded (a failure counts, a success clears the client's failures).
   */
  async attempt(
    client: string,
    nowMs: number,
    check: () => Promise<boolean>,
  ): Promise<{ kind: 'wait'; seconds: number } | { kind: 'refused' } | { kind: 'ok' }> {
    const seconds = this.retryAfterSeconds(client, nowMs);
    if (seconds > 0) return { kind: 'wait', seconds };
    if (!(await check())) {
      this.recordFailure(client, nowMs);
      return { kind: 'refused' };
    }
    this.recordSuccess(client);
    return { kind: 'ok' };
  }

  recordSuccess(client: string): void {
    this.failures.delete(client);
  }

  private recent(client: string, nowMs: number): number[] {
    return (this.failures.get(client) ?? []).filter((t) => nowMs - t < this.windowMs);
  }
}
