import { FetchError } from './fetch-error.js';
import { checkTarget } from './guard.js';
import { isPermanentRedirect, isRedirectStatus, reasonPhrase } from './response.js';
import type { Redirect } from './types.js';

/** A redirect response and what the fetch has seen so far. */
export interface RedirectStep {
  from: URL;
  status: number;
  location: string | undefined;
  /** Every URL fetched so far, without fragments. */
  visited: ReadonlySet<string>;
  /** Appended to: each hop is recorded before it is judged, so a refused hop shows in the outcome. */
  redirects: Redirect[];
  maxRedirects: number;
  allowPrivateAddresses: boolean;
}

/**
 * Records one redirect and returns the URL to fetch next. Throws FetchError for a missing or unusable
 * Location, a loop, one hop too many, or a target the guard refuses (scheme, literal private IP).
 */
export function followRedirect(step: RedirectStep): URL {
  const { from, status } = step;
  if (!isRedirectStatus(status)) throw new TypeError(`followRedirect: ${status} is not a redirect status`);
  const statusText = reasonPhrase(status);
  const location = step.location?.trim();
  if (location === undefined || location === '') {
    throw new FetchError('bad_redirect', {
      url: from.href,
      status,
      statusText,
      detail: 'without a Location header',
    });
  }
  const to = resolveLocation(location, from);
  if (to === undefined) {
    const detail = `with a Location that is not a URL: ${JSON.stringify(location)}`;
    throw new FetchError('bad_redirect', { url: from.href, status, statusText, detail });
  }
  carryCredentials(from, to);
  step.redirects.push({ from: from.href, to: to.href, status, permanent: isPermanentRedirect(status) });
  const bare = new URL(to.href);
  bare.hash = '';
  if (step.visited.has(bare.href)) {
    throw new FetchError('redirect_loop', { url: from.href, status, target: to.href });
  }
  if (step.redirects.length > step.maxRedirects) {
    throw new FetchError('too_many_redirects', {
      url: from.href,
      maxRedirects: step.maxRedirects,
      target: to.href,
    });
  }
  const refusal = checkTarget(to, step.allowPrivateAddresses);
  if (refusal !== undefined) throw refusal;
  return to;
}

// RFC 9110 section 10.2.2: Location may be relative; it resolves against the URL that was requested.
function resolveLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/**
 * Keeps user:password across a redirect to the same host and port (or the https upgrade of the same host),
 * as the /feed -> /feed/ and http -> https hops of private feeds need; never to another host, where the
 * credentials would leak. They stay in `to` so a poller that adopts a permanent redirect keeps them.
 */
function carryCredentials(from: URL, to: URL): void {
  if (from.username === '' && from.password === '') return;
  if (to.username !== '' || to.password !== '') return;
  const sameOrigin = from.origin === to.origin;
  const upgrade = from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname;
  if (!sameOrigin && !upgrade) return;
  to.username = from.username;
  to.password = from.password;
}
