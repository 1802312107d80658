import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { hashToken } from '../store/index.js';
import type { IndieAuthSettings } from './deps.js';
import { sameMe, TokenEndpointVerifier } from './indieauth.js';

/** What a valid token allows: whom it acts as, its scopes, and where it was verified. */
export interface Grant {
  /** The user the token acts as: every action uses that user's store (Store.forUser). */
  userId: number;
  scopes: ReadonlySet<string>;
  source: 'tidings' | 'indieauth';
  /** Names the token without giving it (event streams are capped per token): `tidings:ID` or a hash's prefix. */
  tokenKey: string;
  /** The stored token (tokens tidings issued). */
  tokenId?: number;
  /** The owner the token endpoint named (IndieAuth tokens). */
  me?: string;
}

/** The bearer token of a request: the Authorization header, else the `access_token` parameter (Microsub spec, "Authentication"). */
export function bearerToken(
  authorization: string | undefined,
  accessToken: string | undefined,
): string | undefined {
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? accessToken;
}

/** True when the grant holds at least one of these scopes. */
export function hasAnyScope(grant: Grant, anyOf: readonly string[]): boolean {
  return anyOf.some((scope) => grant.scopes.has(scope));
}

// lastUsedAt is for people reading `tidings token list`: one write a minute per token is plenty.
const TOUCH_EVERY_MS = 60_000;

/**
 * Checks bearer tokens: those tidings issued (by hash, in the store: each names its user), then those of
 * an IndieAuth token endpoint, which act as the user whose `me` the endpoint named (`tidings user add
 * --me`). A token of `serve --me`'s URL acts as the one user of a one-user instance whatever their `me`,
 * as before accounts. A `me` that is nobody's here is refused: any site may have been given a token.
 */
export class Authenticator {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #log: Logger;
  readonly #verifier: TokenEndpointVerifier | undefined;
  readonly #me: string | undefined;

  constructor(deps: { store: Store; indieAuth: IndieAuthSettings; log: Logger; now: () => Date }) {
    this.#store = deps.store;
    this.#now = deps.now;
    this.#log = deps.log;
    const { tokenEndpoint, me } = deps.indieAuth;
    this.#me = me;
    this.#verifier = tokenEndpoint
      ? new TokenEndpointVerifier({ tokenEndpoint, log: deps.log, now: deps.now })
      : undefined;
  }

  /** What the token allows, or undefined when it is not valid. */
  async authenticate(token: string): Promise<Grant | undefined> {
    const tokenHash = hashToken(token);
    const stored = await this.#store.accounts.findToken(tokenHash);
    if (stored) {
      const now = this.#now();
      if (!stored.lastUsedAt || now.getTime() - Date.parse(stored.lastUsedAt) > TOUCH_EVERY_MS) {
        await this.#store.accounts.touchToken(stored.id, now.toISOString()).catch((err: unknown) => {
          this.#log.warn({ err, tokenId: stored.id }, 'microsub: could not record the token use');
        });
      }
      return {
        userId: stored.userId,
        scopes: scopeSet(stored.scope),
        source: 'tidings',
        tokenKey: `tidings:${stored.id}`,
        tokenId: stored.id,
      };
    }
    const verified = await this.#verifier?.verify(token, tokenHash);
    if (!verified) return undefined;
    const userId = await this.#userOf(verified.me);
    if (userId === undefined) return undefined;
    return {
      userId,
      scopes: new Set(verified.scopes),
      source: 'indieauth',
      tokenKey: `indieauth:${tokenHash.slice(0, 16)}`,
      me: verified.me,
    };
  }

  /**
   * The user whose profile URL is `me` (exactly, else as sameMe compares them); for `serve --me`'s URL,
   * the one user of a one-user instance (user 1 while nobody has been set up, as the root store acts).
   */
  async #userOf(me: string): Promise<number | undefined> {
    const users = this.#store.users;
    const exact = await users.byMe(me);
    if (exact) return exact.id;
    if (this.#me !== undefined && sameMe(me, this.#me)) {
      const sole = await users.sole();
      if (sole) return sole.id;
      if (await users.isEmpty()) return this.#store.userId;
    }
    const alike = (await users.list()).find((user) => user.me !== undefined && sameMe(user.me, me));
    return alike?.id;
  }
}

function scopeSet(scope: string): Set<string> {
  return new Set(scope.split(/\s+/).filter((s) => s !== ''));
}
