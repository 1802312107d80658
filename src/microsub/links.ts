// URLs in and out of the endpoint, by the one URL policy of every output (model/safe-url.ts): a URL a
// feed gave reaches a client only when it is absolute http(s), and a URL a client gives to mute or
// block must be one, since only such URLs are shown (issue 22).

import { safeLinkUrl } from '../model/index.js';
import { badRequest } from './errors.js';

/** The longest URL a client may name (a long feed URL is some hundred characters). */
export const MAX_URL_LENGTH = 2048;

/**
 * The URL as stored when the policy lets it out, else undefined. Kept as stored, not normalized: a
 * client mutes or blocks the author URL it was shown, and the store compares rules with stored URLs.
 */
export function safeLink(url: string | undefined): string | undefined {
  return safeLinkUrl(url) === undefined ? undefined : url;
}

/** The safe ones of these URLs, in order. */
export function safeLinks(urls: Iterable<string>): string[] {
  return [...urls].filter((url) => safeLinkUrl(url) !== undefined);
}

// Schemes whose URLs run script or embed a document (as the sanitizer's, html/sanitize-url.ts).
const SCRIPT_PROTOCOLS = new Set(['javascript:', 'vbscript:', 'data:']);

/**
 * A uid as given, unless it is a URL that runs script or embeds a document. A uid is an identifier,
 * often a `tag:` or `urn:` URI, so the link rule does not apply; but an h-entry's uid is its u-url, and
 * a client may open it as a link.
 */
export function safeUid(uid: string): string | undefined {
  try {
    return SCRIPT_PROTOCOLS.has(new URL(uid).protocol) ? undefined : uid;
  } catch {
    return uid;
  }
}

/** A URL parameter no longer than MAX_URL_LENGTH; 400 when it is missing or longer. */
export function requireUrlParam(value: string | undefined): string {
  if (value === undefined) throw badRequest('the url parameter is missing');
  if (value.length > MAX_URL_LENGTH) throw badRequest(`a URL has at most ${MAX_URL_LENGTH} characters`);
  return value;
}

/** A URL parameter that is an absolute http(s) URL, kept as sent; 400 otherwise. */
export function requireLinkParam(value: string | undefined): string {
  const url = requireUrlParam(value);
  if (safeLinkUrl(url) === undefined) throw badRequest(`"${url.slice(0, 200)}" is not an http(s) URL`);
  return url;
}
