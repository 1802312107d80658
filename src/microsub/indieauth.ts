import type { Logger } from '../log.js';

/** What a token endpoint said about a token it issued. */
export interface VerifiedToken {
  me: string;
  scopes: string[];
  clientId?: string;
}

export interface TokenEndpointOptions {
  tokenEndpoint: string;
  log: Logger;
  now: () => Date;
  /** How long an answer is reused; default 2 minutes (a refusal: 30 seconds). */
  cacheMs?: number;
  timeoutMs?: number;
}

const DEFAULT_CACHE_MS = 2 * 60_000;
const REFUSAL_CACHE_MS = 30_000;
const MAX_CACHED = 500;
const MAX_ANSWER_CHARS = 64 * 1024;

/**
 * Verifies bearer tokens against an IndieAuth token endpoint (IndieAuth, "Access Token Verification":
 * GET with the token in the Authorization header), accepting JSON or form-encoded answers, and caches
 * each answer for a short time in a bounded map. A bad or unreachable endpoint refuses the token; it
 * never fails the request. Which user the token's `me` is (if any) is the Authenticator's to decide.
 */
export class TokenEndpointVerifier {
  readonly #options: TokenEndpointOptions;
  readonly #cache = new Map<string, { token: VerifiedToken | undefined; expiresAt: number }>();
  readonly #inFlight = new Map<string, Promise<VerifiedToken | undefined>>();

  constructor(options: TokenEndpointOptions) {
    this.#options = options;
  }

  /** The token's owner and scopes, or undefined when the endpoint does not vouch for it. */
  async verify(token: string, tokenHash: string): Promise<VerifiedToken | undefined> {
    const now = this.#options.now().getTime();
    const cached = this.#cache.get(tokenHash);
    if (cached && cached.expiresAt > now) return cached.token;
    const pending = this.#inFlight.get(tokenHash);
    if (pending) return pending;
    const request = this.#ask(token).finally(() => this.#inFlight.delete(tokenHash));
    this.#inFlight.set(tokenHash, request);
    const answer = await request;
    this.#remember(tokenHash, answer, now);
    return answer;
  }

  #remember(tokenHash: string, token: VerifiedToken | undefined, now: number): void {
    this.#cache.delete(tokenHash);
    if (this.#cache.size >= MAX_CACHED) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    const ttl = token ? (this.#options.cacheMs ?? DEFAULT_CACHE_MS) : REFUSAL_CACHE_MS;
    this.#cache.set(tokenHash, { token, expiresAt: now + ttl });
  }

  async #ask(token: string): Promise<VerifiedToken | undefined> {
    const { tokenEndpoint, log } = this.#options;
    try {
      const response = await fetch(tokenEndpoint, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 5_000),
        redirect: 'follow',
      });
      const text = await response.text();
      if (!response.ok) return undefined;
      if (text.length > MAX_ANSWER_CHARS) throw new Error(`answer of ${text.length} characters`);
      return readAnswer(text, response.headers.get('content-type') ?? '');
    } catch (err) {
      log.warn({ err, tokenEndpoint }, 'microsub: token endpoint could not verify a token');
      return undefined;
    }
  }
}

/** Reads a token endpoint's answer, JSON or form-encoded; undefined without a `me` or when inactive. */
export function readAnswer(text: string, contentType: string): VerifiedToken | undefined {
  let fields: Record<string, unknown>;
  if (contentType.includes('json') || text.trimStart().startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    fields = parsed as Record<string, unknown>;
  } else {
    fields = Object.fromEntries(new URLSearchParams(text));
  }
  // token introspection (RFC 7662) answers {"active": false} for a token it does not know
  if (fields['active'] === false || fields['active'] === 'false') return undefined;
  const me = fields['me'];
  if (typeof me !== 'string' || me.trim() === '') return undefined;
  const scope = fields['scope'];
  const scopes = typeof scope === 'string' ? scope.split(/[\s,]+/) : Array.isArray(scope) ? scope : [];
  const verified: VerifiedToken = {
    me: me.trim(),
    scopes: scopes.filter((s): s is string => typeof s === 'string' && s !== ''),
  };
  if (typeof fields['client_id'] === 'string') verified.clientId = fields['client_id'];
  return verified;
}

/** True when two profile URLs name the same person: scheme and host case and a trailing slash do not count. */
export function sameMe(a: string, b: string): boolean {
  return normalizeMe(a) === normalizeMe(b);
}

function normalizeMe(url: string): string {
  try {
    const u = new URL(url.trim());
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return url.trim().toLowerCase().replace(/\/+$/, '');
  }
}
