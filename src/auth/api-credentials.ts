import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/index.js';
import { hashPassword, verifyPassword } from './password-hash.js';

// The one account both sync APIs accept (issue 15), set with `tidings api-password --user NAME`:
// - Google Reader: ClientLogin with Email=NAME and Passwd=PASSWORD; the password is kept as an scrypt
//   hash (password-hash.ts). A login returns a random Auth token, stored as its SHA-256 (api_tokens).
// - Fever: api_key = md5("NAME:PASSWORD"), hex. That key is a password equivalent by the protocol's
//   design (the app sends it with every request), so it is kept as a slow salted hash: scrypt (as the
//   password) of the SHA-256 of its lower-case hex. A copy of the database allows a few guesses per
//   second, not the ~300k of a plain SHA-256 (issue 22). Since the app sends the key with every request,
//   a key once verified is remembered in memory (as an HMAC under a key of this process) and later
//   requests compare it in constant time: the hot path stays a settings read and an HMAC.

export const API_USER_SETTING = 'api.user';
export const API_PASSWORD_SETTING = 'api.password';
export const API_FEVER_KEY_SETTING = 'api.fever_key';

const MIN_PASSWORD_LENGTH = 8;

/** What is wrong with an API user name or password, or undefined when they will do. */
export function checkApiCredentials(user: string, password: string): string | undefined {
  if (user.trim() === '' || user !== user.trim())
    return 'the user name must be non-empty, without spaces around it';
  if (/[\s:]/.test(user)) return 'the user name must not contain spaces or ":"';
  if (password.length < MIN_PASSWORD_LENGTH)
    return `use a password of at least ${MIN_PASSWORD_LENGTH} characters`;
  return undefined;
}

/** The Fever API key of an account: md5("NAME:PASSWORD"), lower-case hex. */
export function feverKey(user: string, password: string): string {
  return createHash('md5').update(`${user}:${password}`).digest('hex');
}

function feverKeyHash(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('hex');
}

/** Sets (or replaces) the API account; every app signed in before is signed out. */
export async function setApiPassword(
  store: Store,
  user: string,
  password: string,
  cost: { N?: number } = {},
): Promise<void> {
  await store.accounts.setUserSetting(API_USER_SETTING, user);
  await store.accounts.setUserSetting(API_PASSWORD_SETTING, await hashPassword(password, cost));
  await store.accounts.setUserSetting(
    API_FEVER_KEY_SETTING,
    await hashPassword(feverKeyHash(feverKey(user, password)), cost),
  );
  await store.accounts.deleteApiTokens();
}

/** The API user name, when an API password was set. */
export async function apiUser(store: Store): Promise<string | undefined> {
  return store.accounts.getUserSetting(API_USER_SETTING);
}

/** True when the name and password are the API account's (the name compares case-insensitively, as e-mail). */
export async function checkApiLogin(store: Store, user: string, password: string): Promise<boolean> {
  const [name, hash] = await Promise.all([
    store.accounts.getUserSetting(API_USER_SETTING),
    store.accounts.getUserSetting(API_PASSWORD_SETTING),
  ]);
  if (name === undefined || hash === undefined) return false;
  const passwordOk = await verifyPassword(password, hash);
  return passwordOk && name.toLowerCase() === user.trim().toLowerCase();
}

const FEVER_KEY_PATTERN = /^[0-9a-fA-F]{32}$/;
// A Fever key stored before issue 22: the plain SHA-256 of the key, 64 hex digits.
const LEGACY_FEVER_KEY = /^[0-9a-f]{64}$/;

// Keys verified since the process started, by the stored hash they matched (a new API password
// stores a new hash, which no remembered key matches): the HMAC of the key under a random key of this
// process. A handful at most: one account, one stored hash at a time.
const verifiedFeverKeys = new Map<string, Buffer>();
const VERIFIED_KEY_SECRET = randomBytes(32);
const MAX_VERIFIED_KEYS = 4;

function verifiedKeyMac(key: string): Buffer {
  return createHmac('sha256', VERIFIED_KEY_SECRET).update(key.trim().toLowerCase()).digest();
}

/**
 * True when the Fever api_key is one this process verified against the stored hash, without a slow
 * hash: the fast path of every Fever request. False means "not known", not "wrong": check it then.
 */
export async function isVerifiedFeverKey(store: Store, key: string): Promise<boolean> {
  const stored = await store.accounts.getUserSetting(API_FEVER_KEY_SETTING);
  const known = stored === undefined ? undefined : verifiedFeverKeys.get(stored);
  if (known === undefined || !FEVER_KEY_PATTERN.test(key.trim())) return false;
  return timingSafeEqual(verifiedKeyMac(key), known);
}

/** True when the Fever api_key (hex, either case) is the account's: a slow hash unless verified before. */
export async function checkFeverKey(store: Store, key: string): Promise<boolean> {
  const stored = await upgradeFeverKeyStorage(store);
  if (stored === undefined || !FEVER_KEY_PATTERN.test(key.trim())) return false;
  const known = verifiedFeverKeys.get(stored);
  if (known !== undefined) return timingSafeEqual(verifiedKeyMac(key), known);
  if (!(await verifyPassword(feverKeyHash(key), stored))) return false;
  verifiedFeverKeys.delete(stored);
  verifiedFeverKeys.set(stored, verifiedKeyMac(key));
  if (verifiedFeverKeys.size > MAX_VERIFIED_KEYS) {
    const oldest = verifiedFeverKeys.keys().next().value;
    if (oldest !== undefined) verifiedFeverKeys.delete(oldest);
  }
  return true;
}

/**
 * Rewrites a Fever key stored as a plain SHA-256 (before issue 22) as scrypt of that SHA-256, which
 * needs no key: a database stops allowing fast guessing the first time a server starts on it or an app
 * sends a key, and the apps signed in keep working. Returns the stored hash (undefined without an API
 * account).
 */
export async function upgradeFeverKeyStorage(
  store: Store,
  cost: { N?: number } = {},
): Promise<string | undefined> {
  const stored = await store.accounts.getUserSetting(API_FEVER_KEY_SETTING);
  if (stored === undefined || !LEGACY_FEVER_KEY.test(stored)) return stored;
  const upgraded = await hashPassword(stored, cost);
  await store.accounts.setUserSetting(API_FEVER_KEY_SETTING, upgraded);
  return upgraded;
}

/**
 * A new Google Reader Auth token (64 hex digits: no "=" or "/", since apps split ClientLogin's lines
 * on "=" and put the token in a header). Only its SHA-256 is stored.
 */
export async function issueApiToken(store: Store, now: Date): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await store.accounts.createApiToken(apiTokenHash(token), now.toISOString());
  return token;
}

/** True when the token is a live API token; records its use at most once a minute. */
export async function checkApiToken(store: Store, token: string, now: Date): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(token)) return false;
  const stored = await store.accounts.findApiToken(apiTokenHash(token));
  if (stored === undefined) return false;
  if (!stored.lastUsedAt || now.getTime() - Date.parse(stored.lastUsedAt) > 60_000)
    await store.accounts.touchApiToken(stored.id, now.toISOString());
  return true;
}

function apiTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
