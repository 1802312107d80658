import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import { hashPassword, verifyPassword } from './password-hash.js';

// The one account both sync APIs accept (issue 15), set with `tidings api-password --user NAME`:
// - Google Reader: ClientLogin with Email=NAME and Passwd=PASSWORD; the password is kept as an scrypt
//   hash (password-hash.ts). A login returns a random Auth token, stored as its SHA-256 (api_tokens).
// - Fever: api_key = md5("NAME:PASSWORD"), hex. That key is a password equivalent by the protocol's
//   design (the app sends it with every request), so it is kept as the SHA-256 of its lower-case hex:
//   a copy of the database does not give the key, and a key is checked in constant time.

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
  await store.setSetting(API_USER_SETTING, user);
  await store.setSetting(API_PASSWORD_SETTING, await hashPassword(password, cost));
  await store.setSetting(API_FEVER_KEY_SETTING, feverKeyHash(feverKey(user, password)));
  await store.deleteApiTokens();
}

/** The API user name, when an API password was set. */
export async function apiUser(store: Store): Promise<string | undefined> {
  return store.getSetting(API_USER_SETTING);
}

/** True when the name and password are the API account's (the name compares case-insensitively, as e-mail). */
export async function checkApiLogin(store: Store, user: string, password: string): Promise<boolean> {
  const [name, hash] = await Promise.all([
    store.getSetting(API_USER_SETTING),
    store.getSetting(API_PASSWORD_SETTING),
  ]);
  if (name === undefined || hash === undefined) return false;
  const passwordOk = await verifyPassword(password, hash);
  return passwordOk && name.toLowerCase() === user.trim().toLowerCase();
}

/** True when the Fever api_key (hex, either case) is the account's. */
export async function checkFeverKey(store: Store, key: string): Promise<boolean> {
  const stored = await store.getSetting(API_FEVER_KEY_SETTING);
  if (stored === undefined || !/^[0-9a-fA-F]{32}$/.test(key.trim())) return false;
  const given = Buffer.from(feverKeyHash(key), 'hex');
  const expected = Buffer.from(stored, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A new Google Reader Auth token (64 hex digits: no "=" or "/", since apps split ClientLogin's lines
 * on "=" and put the token in a header). Only its SHA-256 is stored.
 */
export async function issueApiToken(store: Store, now: Date): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await store.createApiToken(apiTokenHash(token), now.toISOString());
  return token;
}

/** True when the token is a live API token; records its use at most once a minute. */
export async function checkApiToken(store: Store, token: string, now: Date): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(token)) return false;
  const stored = await store.findApiToken(apiTokenHash(token));
  if (stored === undefined) return false;
  if (!stored.lastUsedAt || now.getTime() - Date.parse(stored.lastUsedAt) > 60_000)
    await store.touchApiToken(stored.id, now.toISOString());
  return true;
}

function apiTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
