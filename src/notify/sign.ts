import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The name of the webhook header that signs its body. */
export const SIGNATURE_HEADER = 'X-Tidings-Signature';

/** `sha256=<hex HMAC-SHA256 of the raw body with the secret>`, the X-Tidings-Signature header's value. */
export function signBody(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** True when `header` is the signature of `body` with `secret` (compared in constant time). */
export function verifySignature(body: string | Uint8Array, secret: string, header: string): boolean {
  const expected = Buffer.from(signBody(body, secret));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A new webhook secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
