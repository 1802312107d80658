import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** The settings key that holds the owner's password hash. */
export const PASSWORD_SETTING = 'owner.password';

/**
 * Sessions issued before this time (ms since the epoch) are refused: setting a new password signs
 * every browser out.
 */
export const SESSIONS_NOT_BEFORE_SETTING = 'web.sessions.not_before';

// scrypt with N=2^15, r=8, p=1 (OWASP's minimum for scrypt): about 0.1 s and 32 MiB per attempt.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, params: typeof PARAMS): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * Returns `scrypt$N$r$p$salt$hash` (base64url) for a password, with a fresh random salt. The cost
 * travels with the hash, so it can be raised later; tests pass a small `N` to stay fast.
 */
export async function hashPassword(password: string, cost: { N?: number } = {}): Promise<string> {
  const salt = randomBytes(16);
  const params = { ...PARAMS, ...cost };
  const key = await derive(password, salt, params);
  const { N, r, p } = params;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when the password matches a hash written by hashPassword (compared in constant time). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((x) => Number.isInteger(x) && x > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
