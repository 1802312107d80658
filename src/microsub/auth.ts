import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { hashToken } from '../store/index.js';
import type { IndieAuthSettings } from './deps.js';
import { TokenEndpointVerifier } from './indieauth.js';

/** What a valid token allows: its scopes, and where it was verified. */
export interface Grant {
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

/** Checks bearer tokens: those tidings issued (by hash, in the store), then those of an IndieAuth token endpoint. */
export class Authenticator {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #log: Logger;
  readonly #verifier: TokenEndpointVerifier | undefined;

  constructor(deps: { store: Store; indieAuth: IndieAuthSettings; log: Logger; now: () => Date }) {
    this.#store = deps.store;
    this.#now = deps.now;
    this.#log = deps.log;
    const { tokenEndpoint, me } = deps.indieAuth;
    if (tokenEndpoint && !me)
      deps.log.warn(
        'microsub: --token-endpoint without --me: tokens of the endpoint are refused, since any site could have been given them',
      );
    this.#verifier =
      tokenEndpoint && me
        ? new TokenEndpointVerifier({ tokenEndpoint, me, log: deps.log, now: deps.now })
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
        scopes: scopeSet(stored.scope),
        source: 'tidings',
        tokenKey: `tidings:${stored.id}`,
        tokenId: stored.id,
      };
    }
    const verified = await this.#verifier?.verify(token, tokenHash);
    if (!verified) return undefined;
    return {
      scopes: new Set(verified.scopes),
      source: 'indieauth',
      tokenKey: `indieauth:${tokenHash.slice(0, 16)}`,
      me: verified.me,
    };
  }
}

function scopeSet(scope: string): Set<string> {
  return new Set(scope.split(/\s+/).filter((s) => s !== ''));
}
