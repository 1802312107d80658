import type { FetchRequest } from './types.js';

export const DEFAULT_USER_AGENT = 'tidings/0.1 (+https://github.com/tidings; feed reader)';
export const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/html;q=0.5';
// Decompression is ours (node:zlib, streaming) so that the body limit applies to the decoded bytes.
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Returns the headers every hop sends: User-Agent, Accept, Accept-Encoding and the validators. */
export function requestHeaders(request: FetchRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': request.userAgent ?? DEFAULT_USER_AGENT,
    accept: FEED_ACCEPT,
    'accept-encoding': ACCEPT_ENCODING,
  };
  // RFC 9110 section 13.1: a server that supports both evaluates If-None-Match and ignores If-Modified-Since,
  // so sending both is safe and helps servers that only know dates.
  if (request.conditional !== false) {
    if (request.etag !== undefined) headers['if-none-match'] = request.etag;
    if (request.lastModified !== undefined) headers['if-modified-since'] = request.lastModified;
  }
  return headers;
}

/** Returns response headers with lower-case names and repeated headers joined with ", ". */
export function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const text = headerValue(value);
    if (text !== undefined) headers[name.toLowerCase()] = text;
  }
  return headers;
}

/** Returns one header value as a string (repeated values joined with ", "). */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Returns the headers with Basic credentials from the URL's user:password (private feeds are often
 * subscribed as https://user:pass@host/feed), or the headers unchanged when the URL has none.
 */
export function withAuthorization(headers: Record<string, string>, url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return headers;
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { ...headers, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
