import type { Store } from '../store/index.js';
import { checkApiLogin, checkFeverKey, isVerifiedFeverKey } from './api-credentials.js';
import { LoginGate, type LoginOutcome } from './login-gate.js';
import { PasswordChecks } from './password-checks.js';
import { PASSWORD_SETTING, verifyPassword } from './password-hash.js';
import { LoginLimiter } from './rate-limit.js';

export type { LoginOutcome } from './login-gate.js';

/** Limits of the logins of one server; tests make them small. */
export interface LoginLimits {
  /** Attempts per client address within `windowMs` (default 5 per 15 minutes). */
  maxFailures?: number;
  windowMs?: number;
  /** Password checks at once in the process, and waiting (default 2 and 8). */
  maxRunning?: number;
  maxWaiting?: number;
}

/**
 * The logins of one server process, decided here for every front end: the owner's password (web UI)
 * and the API account (Google Reader ClientLogin and Fever keys, which share its password), each
 * limited per client address, all sharing one bound on password checks at once.
 */
export class Logins {
  readonly checks: PasswordChecks;
  readonly owner: LoginGate;
  readonly api: LoginGate;

  constructor(limits: LoginLimits = {}) {
    this.checks = new PasswordChecks(limits.maxRunning, limits.maxWaiting);
    const limiter = () => new LoginLimiter(limits.maxFailures, limits.windowMs);
    this.owner = new LoginGate(limiter(), this.checks);
    this.api = new LoginGate(limiter(), this.checks);
  }
}

/** The web UI's login: the owner's password. */
export function ownerLogin(
  store: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  password: string,
): Promise<LoginOutcome> {
  return logins.owner.attempt(client, nowMs, password, async () => {
    const stored = await store.accounts.getUserSetting(PASSWORD_SETTING);
    return stored !== undefined && stored !== '' && (await verifyPassword(password, stored));
  });
}

/** Google Reader's ClientLogin: the API account's name and password. */
export function apiPasswordLogin(
  store: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  user: string,
  password: string,
): Promise<LoginOutcome> {
  return logins.api.attempt(client, nowMs, `${user}\n${password}`, () =>
    checkApiLogin(store, user, password),
  );
}

/**
 * A Fever request's api_key: a key this process verified before is admitted at the cost of a settings
 * read and an HMAC (apps send the key with every request), unless the client must wait; any other key
 * is a counted attempt with a slow hash.
 */
export async function feverKeyLogin(
  store: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  key: string,
): Promise<LoginOutcome> {
  if (await isVerifiedFeverKey(store, key)) return logins.api.admitKnown(client, nowMs);
  return logins.api.attempt(client, nowMs, key.trim().toLowerCase(), () => checkFeverKey(store, key));
}
