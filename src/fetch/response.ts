import { STATUS_CODES } from 'node:http';
import type { FetchErrorKind } from '../model/index.js';
import { FetchError } from './fetch-error.js';
import type { RedirectStatus } from './types.js';

/** What a status means to the fetch loop. */
export type StatusClass = 'ok' | 'not_modified' | 'gone' | 'redirect' | 'error';

/** Returns how the fetch loop treats a status: 2xx ok, 304, 410, a followable redirect, or an error. */
export function classifyStatus(status: number): StatusClass {
  if (status >= 200 && status <= 299) return 'ok';
  if (status === 304) return 'not_modified';
  if (status === 410) return 'gone';
  if (isRedirectStatus(status)) return 'redirect';
  return 'error';
}

/** Returns true for the statuses that carry a Location to follow (RFC 9110 section 15.4). */
export function isRedirectStatus(status: number): status is RedirectStatus {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** Returns true when a redirect is permanent: 301 and 308 (a poller should update the feed URL). */
export function isPermanentRedirect(status: RedirectStatus): boolean {
  return status === 301 || status === 308;
}

/** Returns true for error statuses whose body is worth a look: bot-protection pages come with these. */
export function needsBodySample(status: number): boolean {
  return status === 401 || status === 403 || status === 429 || status === 503;
}

/** Returns the standard reason phrase for a status (`Not Found`), falling back to what the server sent. */
export function reasonPhrase(status: number, sent?: string): string {
  return STATUS_CODES[status] ?? sent ?? '';
}

/**
 * Returns the name of the bot-protection service when the response is a challenge page rather than the
 * feed: Cloudflare marks its challenges with `cf-mitigated: challenge`, and older setups serve an HTML page
 * titled "Just a moment..." with its challenge-platform script.
 */
export function detectBotChallenge(
  headers: Readonly<Record<string, string>>,
  bodySample: Uint8Array | undefined,
): string | undefined {
  if (headers['cf-mitigated']?.toLowerCase() === 'challenge') return 'Cloudflare';
  if (bodySample === undefined || bodySample.length === 0) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bodySample);
  if (
    /<title>\s*Just a moment\.\.\.\s*<\/title>/i.test(text) ||
    /\/cdn-cgi\/challenge-platform\//.test(text)
  ) {
    return 'Cloudflare';
  }
  return undefined;
}

/** The parts of an error response that decide its kind and message. */
export interface ErrorResponse {
  url: string;
  status: number;
  statusText?: string;
  headers: Readonly<Record<string, string>>;
  bodySample?: Uint8Array;
  retryAfterSeconds?: number;
  bytes?: number;
}

/** Returns the FetchError for an error status (404 not_found, 403 forbidden or bot_challenge, 429 ...). */
export function errorForStatus(response: ErrorResponse): FetchError {
  const challenge = needsBodySample(response.status)
    ? detectBotChallenge(response.headers, response.bodySample)
    : undefined;
  const kind: FetchErrorKind = challenge === undefined ? statusErrorKind(response.status) : 'bot_challenge';
  return new FetchError(kind, {
    url: response.url,
    status: response.status,
    statusText: reasonPhrase(response.status, response.statusText),
    ...(challenge === undefined ? {} : { detail: challenge }),
    ...(response.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: response.retryAfterSeconds }),
    ...(response.bytes === undefined ? {} : { bytes: response.bytes }),
  });
}

function statusErrorKind(status: number): FetchErrorKind {
  if (status === 404) return 'not_found';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 400 && status <= 499) return 'http_client_error';
  if (status >= 500 && status <= 599) return 'http_server_error';
  return 'unexpected_status';
}
