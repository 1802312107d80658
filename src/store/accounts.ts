/** A bearer token for the Microsub endpoint, stored by the hash of its secret only. */
export interface StoredToken {
  id: number;
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  /** Space-separated scopes, e.g. "read follow mute block channels". */
  scope: string;
  /** Who it was issued to or for (a client id or a note). */
  label?: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

/** Tokens issued by tidings itself, and the owner's settings (password hash, secrets). */
export interface AccountStore {
  createToken(token: { tokenHash: string; scope: string; label?: string }, now: string): Promise<StoredToken>;
  /** The token with this hash, unless revoked. */
  findToken(tokenHash: string): Promise<StoredToken | undefined>;
  listTokens(): Promise<StoredToken[]>;
  revokeToken(id: number, now: string): Promise<void>;
  touchToken(id: number, now: string): Promise<void>;
  getSetting(key: string): Promise<string | undefined>;
  setSetting(key: string, value: string): Promise<void>;
}
