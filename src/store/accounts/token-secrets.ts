import { createHash, randomBytes } from 'node:crypto';

/** The scopes a Microsub token can carry. */
export const TOKEN_SCOPES = ['read', 'follow', 'mute', 'block', 'channels'] as const;

/** A fresh token: 32 random bytes, base64url. Only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a token, hex: how tokens are stored and looked up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
