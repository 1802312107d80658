import { createHmac, randomBytes } from 'node:crypto';
import type { PasswordChecks } from './password-checks.js';
import { type LoginLimiter, limitKey, type Reservation } from './rate-limit.js';

/** How a login attempt ended. */
export type LoginOutcome =
  | { kind: 'ok' }
  /** the password (or key) is not right */
  | { kind: 'refused' }
  /** this client used its attempts: try again in `seconds`, nothing was checked */
  | { kind: 'wait'; seconds: number }
  /** too many password checks at once in this process: try again in `seconds`, nothing was checked or counted */
  | { kind: 'busy'; seconds: number };

/** How a login attempt that names whose secret it was ended: `ok` carries who (a user id, say). */
export type LoginResult<T> = Exclude<LoginOutcome, { kind: 'ok' }> | { kind: 'ok'; value: T };

/** What a check found: who the secret is (wrapped, so that any value, even false, is a success), or nobody. */
type Found<T> = { value: T } | undefined;

const BUSY_RETRY_SECONDS = 2;
// Addresses that signed in lately get their checks run ahead of the others' (PasswordChecks): the owner
// logging in from home or from the phone's app is not starved by a burst from other addresses.
const SIGNED_IN_MS = 30 * 24 * 3600_000;
const MAX_SIGNED_IN = 32;

/**
 * Every login of one secret (the owner's password, the API account) passes here: the attempt is counted
 * per client before its check (LoginLimiter.reserve), then the check waits for a place among the
 * process's password checks (PasswordChecks). A burst is thus limited as a sequence is, whatever the
 * timing. Attempts of one client with the same secret while it is being checked wait for that check
 * instead of running another: an app that sends its first requests in parallel is not locked out by
 * itself, and a repeated wrong secret still counts once per attempt, as in a sequence. A client that
 * signed in within 30 days has its checks run ahead of other clients'.
 */
export class LoginGate {
  readonly #inFlight = new Map<string, Promise<Found<unknown> | 'busy'>>();
  // secrets are told apart in memory by an HMAC under a key of this process, never kept as such
  readonly #fingerprintKey = randomBytes(32);
  // limit key -> when it last signed in, the oldest first
  readonly #signedIn = new Map<string, number>();

  constructor(
    readonly limiter: LoginLimiter,
    readonly checks: PasswordChecks,
  ) {}

  /** Seconds until this client may try again; 0 when it may try now. */
  retryAfterSeconds(client: string, nowMs: number): number {
    return this.limiter.retryAfterSeconds(client, nowMs);
  }

  /**
   * A login whose secret was verified before and is known in memory (no check to run): refused with
   * `wait` while the client must wait, as any other attempt, else a success (which clears failures).
   */
  admitKnown(client: string, nowMs: number): LoginOutcome {
    const seconds = this.limiter.retryAfterSeconds(client, nowMs);
    if (seconds > 0) return { kind: 'wait', seconds };
    this.limiter.succeed(client);
    this.#rememberSignIn(client, nowMs);
    return { kind: 'ok' };
  }

  /** One login attempt with `secret`, which `check` verifies (a store read and a password hash). */
  async attempt(
    client: string,
    nowMs: number,
    secret: string,
    check: () => Promise<boolean>,
  ): Promise<LoginOutcome> {
    const result = await this.attemptAs(client, nowMs, secret, async () =>
      (await check()) ? true : undefined,
    );
    return result.kind === 'ok' ? { kind: 'ok' } : result;
  }

  /**
   * One login attempt with `secret`, which `check` verifies and answers with whose it is (undefined:
   * nobody's), so that a login that names its user by the secret alone (a Fever key) or by a name and
   * a password learns who signed in. Limited and bounded as `attempt`.
   */
  async attemptAs<T>(
    client: string,
    nowMs: number,
    secret: string,
    check: () => Promise<T | undefined>,
  ): Promise<LoginResult<T>> {
    const key = `${limitKey(client)}\n${createHmac('sha256', this.#fingerprintKey).update(secret).digest('hex')}`;
    const same = this.#inFlight.get(key) as Promise<Found<T> | 'busy'> | undefined;
    if (same) return this.#settleRepeat(client, nowMs, await same);
    const reservation = this.limiter.reserve(client, nowMs);
    if ('wait' in reservation) return { kind: 'wait', seconds: reservation.wait };
    const signedInAt = this.#signedIn.get(limitKey(client));
    const priority = signedInAt !== undefined && nowMs - signedInAt < SIGNED_IN_MS;
    const flight = this.checks.run(
      async (): Promise<Found<T>> => {
        const value = await check();
        return value === undefined ? undefined : { value };
      },
      { priority },
    );
    this.#inFlight.set(key, flight);
    try {
      const outcome = this.#settle(client, reservation, await flight);
      if (outcome.kind === 'ok') this.#rememberSignIn(client, nowMs);
      return outcome;
    } catch (error) {
      // the store failed: no answer about the password, so the attempt is not counted
      this.limiter.refund(reservation);
      throw error;
    } finally {
      this.#inFlight.delete(key);
    }
  }

  #rememberSignIn(client: string, nowMs: number): void {
    const key = limitKey(client);
    this.#signedIn.delete(key);
    this.#signedIn.set(key, nowMs);
    if (this.#signedIn.size > MAX_SIGNED_IN) {
      const oldest = this.#signedIn.keys().next().value;
      if (oldest !== undefined) this.#signedIn.delete(oldest);
    }
  }

  #settle<T>(client: string, reservation: Reservation, result: Found<T> | 'busy'): LoginResult<T> {
    if (result === 'busy') {
      this.limiter.refund(reservation);
      return { kind: 'busy', seconds: BUSY_RETRY_SECONDS };
    }
    if (result !== undefined) {
      this.limiter.succeed(client, reservation);
      return { kind: 'ok', value: result.value };
    }
    this.limiter.fail(reservation);
    return { kind: 'refused' };
  }

  /** The outcome of an attempt that repeated one being checked: its result, counted as its own attempt. */
  #settleRepeat<T>(client: string, nowMs: number, result: Found<T> | 'busy'): LoginResult<T> {
    if (result === 'busy') return { kind: 'busy', seconds: BUSY_RETRY_SECONDS };
    if (result !== undefined) {
      const admitted = this.admitKnown(client, nowMs);
      return admitted.kind === 'ok' ? { kind: 'ok', value: result.value } : admitted;
    }
    const reservation = this.limiter.reserve(client, nowMs);
    if ('wait' in reservation) return { kind: 'wait', seconds: reservation.wait };
    this.limiter.fail(reservation);
    return { kind: 'refused' };
  }
}
