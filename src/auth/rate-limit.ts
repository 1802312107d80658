import ipaddr from 'ipaddr.js';

/** One counted attempt: pending while its password is checked, settled once it failed. */
export interface Reservation {
  readonly client: string;
  readonly atMs: number;
  pending: boolean;
}

/**
 * Counts login attempts per client address in memory: after `maxFailures` within `windowMs`, further
 * attempts are refused until the oldest leaves the window. An attempt is counted *before* its password
 * is checked (`reserve`), so that a burst of concurrent attempts is limited as a sequence is: attempts
 * still being checked hold their place (issue 22: 39 concurrent wrong passwords were all checked). A
 * success clears the client's settled failures. A restart forgets the counts, which is acceptable for
 * one owner; it keeps password guessing at a few tries per quarter hour.
 */
export class LoginLimiter {
  private readonly attempts = new Map<string, Reservation[]>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 15 * 60_000,
    // bounds the memory an attacker with many addresses can make us hold
    private readonly maxClients = 10_000,
  ) {}

  /** Seconds until this client may try again; 0 when it may try now. */
  retryAfterSeconds(client: string, nowMs: number): number {
    const recent = this.recent(limitKey(client), nowMs);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures] as Reservation;
    return Math.max(1, Math.ceil((oldest.atMs + this.windowMs - nowMs) / 1000));
  }

  /**
   * Counts an attempt before its check: a reservation to settle with `fail`, `succeed` or `refund`, or
   * the seconds to wait when the client has no attempt left.
   */
  reserve(client: string, nowMs: number): Reservation | { wait: number } {
    const seconds = this.retryAfterSeconds(client, nowMs);
    if (seconds > 0) return { wait: seconds };
    const reservation: Reservation = { client: limitKey(client), atMs: nowMs, pending: true };
    this.keep(reservation.client, [...this.recent(reservation.client, nowMs), reservation]);
    return reservation;
  }

  /** The reserved attempt failed: it stays counted. */
  fail(reservation: Reservation): void {
    reservation.pending = false;
  }

  /** No password was checked after all (the checks were busy, the store failed): the attempt is not counted. */
  refund(reservation: Reservation): void {
    const list = this.attempts.get(reservation.client);
    if (!list) return;
    const rest = list.filter((r) => r !== reservation);
    if (rest.length === 0) this.attempts.delete(reservation.client);
    else this.attempts.set(reservation.client, rest);
  }

  /**
   * A success clears the client's failures; attempts of the same client still being checked keep their
   * place, and count if they fail.
   */
  succeed(client: string, reservation?: Reservation): void {
    const key = limitKey(client);
    const pending = (this.attempts.get(key) ?? []).filter((r) => r.pending && r !== reservation);
    if (pending.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, pending);
  }

  /** A failed attempt that was not reserved first (settled at once). */
  recordFailure(client: string, nowMs: number): void {
    const key = limitKey(client);
    this.keep(key, [...this.recent(key, nowMs), { client: key, atMs: nowMs, pending: false }]);
  }

  recordSuccess(client: string): void {
    this.succeed(client);
  }

  private keep(key: string, list: Reservation[]): void {
    // re-inserted last: the map's first key is the client heard from longest ago
    this.attempts.delete(key);
    this.attempts.set(key, list);
    if (this.attempts.size > this.maxClients) {
      const oldest = this.attempts.keys().next().value;
      if (oldest !== undefined) this.attempts.delete(oldest);
    }
  }

  private recent(key: string, nowMs: number): Reservation[] {
    return (this.attempts.get(key) ?? []).filter((r) => r.pending || nowMs - r.atMs < this.windowMs);
  }
}

/**
 * The key a client address is limited under: an IPv4 address (mapped ones included) as it is, an IPv6
 * address by its /64, since one host is usually given a whole /64 and could otherwise try from each of
 * its 2^64 addresses. Anything else (a test's "unknown") as it is.
 */
export function limitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
