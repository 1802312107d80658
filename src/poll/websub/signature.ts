import { createHmac, timingSafeEqual } from 'node:crypto';

/** The hash functions a hub may sign with (W3C WebSub, section 8: sha1, sha256, sha384, sha512). */
const ALGORITHMS = new Set(['sha1', 'sha256', 'sha384', 'sha512']);

/** What a delivery's X-Hub-Signature says: good, wrong (or an unknown method), or missing. */
export type SignatureCheck = 'good' | 'wrong' | 'missing';

/**
 * Checks `X-Hub-Signature: method=hex` against the HMAC of the raw body with the subscription's secret,
 * in constant time. The body is not read before this says 'good'.
 */
export function checkSignature(header: string | undefined, secret: string, body: Uint8Array): SignatureCheck {
  if (header === undefined || header.trim() === '') return 'missing';
  const match = /^\s*([a-z0-9]+)=([0-9a-f]+)\s*$/i.exec(header);
  if (!match) return 'wrong';
  const method = (match[1] as string).toLowerCase();
  if (!ALGORITHMS.has(method)) return 'wrong';
  const expected = createHmac(method, secret).update(body).digest();
  const given = Buffer.from((match[2] as string).toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'good' : 'wrong';
}

/** The X-Hub-Signature a hub would send (for tests and the local hub). */
export function signBody(method: string, secret: string, body: Uint8Array | string): string {
  return `${method}=${createHmac(method, secret).update(body).digest('hex')}`;
}
