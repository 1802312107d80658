import { randomBytes } from 'node:crypto';
import type { Store } from '../store/index.js';
import { findApiLoginUser, findFeverKeyUser, verifiedFeverKeyUser } from './api-credentials.js';
import { LoginGate, type LoginOutcome, type LoginResult } from './login-gate.js';
import { PasswordChecks } from './password-checks.js';
import { PASSWORD_SETTING, verifyPassword } from './password-hash.js';
import { LoginLimiter } from './rate-limit.js';
import { loginUser, type WebUser } from './web-users.js';

export type { LoginOutcome, LoginResult } from './login-gate.js';

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
 * The logins of one server process, decided here for every front end: the users' passwords (web UI)
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

/** How a web sign-in ended: on success, who signed in. */
export type UserLoginOutcome = Exclude<LoginOutcome, { kind: 'ok' }> | { kind: 'ok'; user: WebUser };

// What an unknown name's attempt is checked against, so that it costs one scrypt as a known name's does
// (the default cost; a random key no password derives) and a name cannot be found out by timing.
const NO_SUCH_USER_HASH = ['scrypt', 2 ** 15, 8, 1, randomBytes(16), randomBytes(32)]
  .map((part) => (Buffer.isBuffer(part) ? part.toString('base64url') : String(part)))
  .join('$');

/**
 * The web UI's sign-in: a user's name (which may be left empty while the instance has one user) and
 * their password. An unknown name, or no name while there are several users, is refused as a wrong
 * password is, after a password check of the same cost; every attempt counts against the client's limit.
 */
export function userLogin(
  instance: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  username: string,
  password: string,
): Promise<UserLoginOutcome> {
  const secret = `${username.toLowerCase()}\n${password}`;
  return attemptAs(
    instance,
    logins,
    { client, nowMs },
    secret,
    () => loginUser(instance, username),
    password,
  );
}

/**
 * A signed-in user's password typed again (to change it): checked as a sign-in is, counted against the
 * client's limit and within the bound on password checks.
 */
export function confirmPassword(
  instance: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  user: WebUser,
  password: string,
): Promise<UserLoginOutcome> {
  const secret = `#${user.id}\n${password}`;
  return attemptAs(instance, logins, { client, nowMs }, secret, async () => user, password);
}

// The user is looked up inside the check, which the gate runs within its bound, as the password's hash
// is read: a burst of attempts reaches the gate at once, and a known and an unknown name cost the same.
// The gate answers with the user its check found (attemptAs), for a repeat of an attempt too.
async function attemptAs(
  instance: Store,
  logins: Logins,
  at: { client: string; nowMs: number },
  secret: string,
  findUser: () => Promise<WebUser | undefined>,
  password: string,
): Promise<UserLoginOutcome> {
  const result = await logins.owner.attemptAs(at.client, at.nowMs, secret, async () => {
    const user = await findUser();
    const stored = user && (await instance.forUser(user.id).accounts.getUserSetting(PASSWORD_SETTING));
    const known = stored !== undefined && stored !== '';
    const matches = await verifyPassword(password, known ? stored : NO_SUCH_USER_HASH);
    return known && matches ? user : undefined;
  });
  return result.kind === 'ok' ? { kind: 'ok', user: result.value } : result;
}

/**
 * Google Reader's ClientLogin: a user's name (or app login name) and app password; `ok` names the user.
 * `store` is any store of the instance (the login finds its user).
 */
export function apiPasswordLogin(
  store: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  user: string,
  password: string,
): Promise<LoginResult<number>> {
  return logins.api.attemptAs(client, nowMs, `${user}\n${password}`, () =>
    findApiLoginUser(store, user, password),
  );
}

/**
 * A Fever request's api_key, which names its user: a key this process verified before is admitted at
 * the cost of a settings read and an HMAC (apps send the key with every request), unless the client
 * must wait; any other key is a counted attempt with slow hashes (api-credentials.ts). `ok` names the user.
 */
export async function feverKeyLogin(
  store: Store,
  logins: Logins,
  client: string,
  nowMs: number,
  key: string,
): Promise<LoginResult<number>> {
  const known = await verifiedFeverKeyUser(store, key);
  if (known !== undefined) {
    const admitted = logins.api.admitKnown(client, nowMs);
    return admitted.kind === 'ok' ? { kind: 'ok', value: known } : admitted;
  }
  return logins.api.attemptAs(client, nowMs, key.trim().toLowerCase(), () => findFeverKeyUser(store, key));
}
