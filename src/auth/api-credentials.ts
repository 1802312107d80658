import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Store } from '../store/index.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { lineBreakIn } from './web-users.js';

// Each user's app account for both sync APIs (issues 15 and 24), set with `tidings api-password --user NAME`:
// - Google Reader: ClientLogin with Email=NAME and Passwd=PASSWORD, NAME the user's name (any case) or the
//   app login name kept from before accounts ('api.user'); the password is kept as an scrypt hash
//   (password-hash.ts). A login returns a random Auth token, stored as its SHA-256 (api_tokens) with
//   its user.
// - Fever: api_key = md5("NAME:PASSWORD"), hex: the key alone names the user. That key is a password
//   equivalent by the protocol's design (the app sends it with every request), so it is kept as a slow
//   salted hash: scrypt (as the password) of the SHA-256 of its lower-case hex. A copy of the database
//   allows a few guesses per second, not the ~300k of a plain SHA-256 (issue 22). Since the app sends
//   the key with every request, a key once verified is remembered in memory (as an HMAC under a key of
//   this process, with its user) and later requests cost a settings read and an HMAC. A key not
//   remembered is checked against the users whose key is in its bucket only (FEVER_KEY_BUCKET_SETTING).

export const API_USER_SETTING = 'api.user';
export const API_PASSWORD_SETTING = 'api.password';
export const API_FEVER_KEY_SETTING = 'api.fever_key';
/**
 * The first hex digit of the SHA-256 of the user's Fever key, beside its slow hash: a key that no
 * process verified yet is slow-checked against the users of its bucket only (about 1 in 16), not every
 * user with a key. It tells a copy of the database 4 bits of the key's SHA-256, which spares a guesser
 * 15 of 16 slow hashes: the price of not running scrypt for every user on a new key.
 */
export const FEVER_KEY_BUCKET_SETTING = 'api.fever_key_bucket';

// A hash of a random password nobody knows, at the default cost: checked when a login names no user
// with an app password, so that an unknown name costs what a wrong password costs and is answered alike.
const NOBODY_HASH = 'scrypt$32768$8$1$NCLD89KDNz96VS1DOr0RNA$J2zxusF-xztGsCUdfp3OnQ1zazGhe-hJfESWeiuhZ1Y';

const MIN_PASSWORD_LENGTH = 8;

/** What is wrong with an API user name or password, or undefined when they will do. */
export function checkApiCredentials(user: string, password: string): string | undefined {
  if (user.trim() === '' || user !== user.trim())
    return 'the user name must be non-empty, without spaces around it';
  if (/[\s:]/.test(user)) return 'the user name must not contain spaces or ":"';
  if (password.length < MIN_PASSWORD_LENGTH)
    return `use a password of at least ${MIN_PASSWORD_LENGTH} characters`;
  return lineBreakIn(password);
}

/** The Fever API key of an account: md5("NAME:PASSWORD"), lower-case hex. */
export function feverKey(user: string, password: string): string {
  return createHash('md5').update(`${user}:${password}`).digest('hex');
}

function feverKeyHash(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('hex');
}

/** The bucket of a Fever key's SHA-256 (FEVER_KEY_BUCKET_SETTING). */
function bucketOf(keyHash: string): string {
  return keyHash.slice(0, 1);
}

/**
 * Sets (or replaces) the app account of the store's user, `user` being the name typed into the apps
 * (the Fever key is made of it); every app of theirs signed in before is signed out.
 */
export async function setApiPassword(
  store: Store,
  user: string,
  password: string,
  cost: { N?: number } = {},
): Promise<void> {
  const keyHash = feverKeyHash(feverKey(user, password));
  await store.accounts.setUserSetting(API_USER_SETTING, user);
  await store.accounts.setUserSetting(API_PASSWORD_SETTING, await hashPassword(password, cost));
  await store.accounts.setUserSetting(FEVER_KEY_BUCKET_SETTING, bucketOf(keyHash));
  await store.accounts.setUserSetting(API_FEVER_KEY_SETTING, await hashPassword(keyHash, cost));
  await store.accounts.deleteApiTokens();
}

/** The name the store's user gave their apps, when they set an app password. */
export async function apiUser(store: Store): Promise<string | undefined> {
  return store.accounts.getUserSetting(API_USER_SETTING);
}

/**
 * The id of the user an app signs in as: the user of this name (any case), else the one whose app login
 * name ('api.user', kept from before accounts, compared as e-mail: case aside) it is.
 */
async function appUserNamed(store: Store, name: string): Promise<number | undefined> {
  const wanted = name.trim();
  if (wanted === '') return undefined;
  const user = await store.users.byName(wanted);
  if (user) return user.id;
  const aliases = await store.accounts.usersWithSetting(API_USER_SETTING);
  return aliases.find((alias) => alias.value.toLowerCase() === wanted.toLowerCase())?.userId;
}

/**
 * The id of the user whose app name and password these are, else undefined. Whatever the name, one
 * password hash is checked: a name without an app password costs and answers as a wrong password.
 */
export async function findApiLoginUser(
  store: Store,
  name: string,
  password: string,
): Promise<number | undefined> {
  const userId = await appUserNamed(store, name);
  const hash =
    userId === undefined
      ? undefined
      : await store.forUser(userId).accounts.getUserSetting(API_PASSWORD_SETTING);
  if (userId === undefined || hash === undefined || hash === '') {
    await verifyPassword(password, NOBODY_HASH);
    return undefined;
  }
  return (await verifyPassword(password, hash)) ? userId : undefined;
}

/** True when the name and password are the app account of the store's user. */
export async function checkApiLogin(store: Store, user: string, password: string): Promise<boolean> {
  return (await findApiLoginUser(store, user, password)) === store.userId;
}

const FEVER_KEY_PATTERN = /^[0-9a-fA-F]{32}$/;
// A Fever key stored before issue 22: the plain SHA-256 of the key, 64 hex digits.
const LEGACY_FEVER_KEY = /^[0-9a-f]{64}$/;

// Keys verified since the process started, by the HMAC of the key under a random key of this process:
// whose key it is, and the stored hash it matched (a new app password stores a new hash, which no
// remembered key matches). A few per user; the least recently verified go first.
const verifiedFeverKeys = new Map<string, { userId: number; stored: string }>();
const VERIFIED_KEY_SECRET = randomBytes(32);
const MAX_VERIFIED_KEYS = 1024;

function verifiedKeyMac(key: string): string {
  return createHmac('sha256', VERIFIED_KEY_SECRET).update(key.trim().toLowerCase()).digest('hex');
}

/**
 * The user whose Fever api_key this process verified before, when it is still their key, without a slow
 * hash: the fast path of every Fever request. Undefined means "not known", not "wrong": check it then.
 */
export async function verifiedFeverKeyUser(store: Store, key: string): Promise<number | undefined> {
  if (!FEVER_KEY_PATTERN.test(key.trim())) return undefined;
  const mac = verifiedKeyMac(key);
  const known = verifiedFeverKeys.get(mac);
  if (known === undefined) return undefined;
  const stored = await store.forUser(known.userId).accounts.getUserSetting(API_FEVER_KEY_SETTING);
  if (stored === known.stored) return known.userId;
  verifiedFeverKeys.delete(mac);
  return undefined;
}

function rememberFeverKey(key: string, userId: number, stored: string): void {
  const mac = verifiedKeyMac(key);
  verifiedFeverKeys.delete(mac);
  verifiedFeverKeys.set(mac, { userId, stored });
  if (verifiedFeverKeys.size > MAX_VERIFIED_KEYS) {
    const oldest = verifiedFeverKeys.keys().next().value;
    if (oldest !== undefined) verifiedFeverKeys.delete(oldest);
  }
}

/**
 * The user whose Fever api_key (hex, either case) this is, else undefined: remembered, or slow-checked
 * against each user whose stored key is in the key's bucket, and those whose key has no bucket (stored
 * before buckets: given one once their key is verified). A key in no user's bucket costs one slow hash.
 * Keys stored as a plain SHA-256 (before issue 22) are rewritten first, whatever the key.
 */
export async function findFeverKeyUser(store: Store, key: string): Promise<number | undefined> {
  const known = await verifiedFeverKeyUser(store, key);
  if (known !== undefined) return known;
  if (!FEVER_KEY_PATTERN.test(key.trim())) return undefined;
  const keyHash = feverKeyHash(key);
  const bucket = bucketOf(keyHash);
  const [keys, buckets] = await Promise.all([
    store.accounts.usersWithSetting(API_FEVER_KEY_SETTING),
    store.accounts.usersWithSetting(FEVER_KEY_BUCKET_SETTING),
  ]);
  const bucketByUser = new Map(buckets.map((row) => [row.userId, row.value]));
  for (const row of keys.filter((row) => LEGACY_FEVER_KEY.test(row.value))) {
    await upgradeFeverKeyStorage(store.forUser(row.userId));
    bucketByUser.set(row.userId, bucketOf(row.value));
  }
  const candidates = keys.filter((row) => (bucketByUser.get(row.userId) ?? bucket) === bucket);
  if (candidates.length === 0) await verifyPassword(keyHash, NOBODY_HASH);
  for (const { userId } of candidates) {
    const own = store.forUser(userId);
    const stored = await own.accounts.getUserSetting(API_FEVER_KEY_SETTING);
    if (stored === undefined || !(await verifyPassword(keyHash, stored))) continue;
    rememberFeverKey(key, userId, stored);
    if (!bucketByUser.has(userId)) await own.accounts.setUserSetting(FEVER_KEY_BUCKET_SETTING, bucket);
    return userId;
  }
  return undefined;
}

/** True when the Fever api_key (hex, either case) is the store's user's: a slow hash unless verified before. */
export async function checkFeverKey(store: Store, key: string): Promise<boolean> {
  return (await findFeverKeyUser(store, key)) === store.userId;
}

/**
 * Rewrites a Fever key stored as a plain SHA-256 (before issue 22) as scrypt of that SHA-256, which
 * needs no key: a database stops allowing fast guessing the first time a server starts on it or an app
 * sends a key, and the apps signed in keep working. Returns the stored hash (undefined without an API
 * account). Acts on the store's user.
 */
export async function upgradeFeverKeyStorage(
  store: Store,
  cost: { N?: number } = {},
): Promise<string | undefined> {
  const stored = await store.accounts.getUserSetting(API_FEVER_KEY_SETTING);
  if (stored === undefined || !LEGACY_FEVER_KEY.test(stored)) return stored;
  const upgraded = await hashPassword(stored, cost);
  // the plain SHA-256 is the key's hash: its bucket is known without the key
  await store.accounts.setUserSetting(FEVER_KEY_BUCKET_SETTING, bucketOf(stored));
  await store.accounts.setUserSetting(API_FEVER_KEY_SETTING, upgraded);
  return upgraded;
}

/**
 * A new Google Reader Auth token (64 hex digits: no "=" or "/", since apps split ClientLogin's lines
 * on "=" and put the token in a header), the store's user's. Only its SHA-256 is stored.
 */
export async function issueApiToken(store: Store, now: Date): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await store.accounts.createApiToken(apiTokenHash(token), now.toISOString());
  return token;
}

/** The user of a live API token, else undefined; records its use at most once a minute. */
export async function apiTokenUser(store: Store, token: string, now: Date): Promise<number | undefined> {
  if (!/^[0-9a-f]{64}$/.test(token)) return undefined;
  const stored = await store.accounts.findApiToken(apiTokenHash(token));
  if (stored === undefined) return undefined;
  if (!stored.lastUsedAt || now.getTime() - Date.parse(stored.lastUsedAt) > 60_000)
    await store.accounts.touchApiToken(stored.id, now.toISOString());
  return stored.userId;
}

/** True when the token is a live API token of the store's user. */
export async function checkApiToken(store: Store, token: string, now: Date): Promise<boolean> {
  return (await apiTokenUser(store, token, now)) === store.userId;
}

function apiTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
