import { performance } from 'node:perf_hooks';
import { type Dispatcher, request as undiciRequest } from 'undici';
import { discardBody, readBody } from './body.js';
import { freshnessSeconds, parseRetryAfter } from './cache-headers.js';
import { type Deadline, startDeadline } from './deadline.js';
import { FetchError } from './fetch-error.js';
import { checkTarget, getSharedAgent } from './guard.js';
import { flattenHeaders, headerValue, requestHeaders, withAuthorization } from './headers.js';
import { classifyFailure } from './network-error.js';
import { followRedirect } from './redirect.js';
import {
  classifyStatus,
  errorForStatus,
  needsBodySample,
  reasonPhrase,
  type StatusClass,
} from './response.js';
import type { FetchOutcome, FetchRequest, Redirect } from './types.js';

export const FETCH_DEFAULTS = {
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  maxBodyBytes: 20 * 1024 * 1024,
  maxRedirects: 5,
} as const;

// Enough of a 403/503 page to recognise a bot challenge, little enough to not care about its size.
const ERROR_SAMPLE_BYTES = 64 * 1024;

/** The request with defaults filled in and the dispatcher chosen. */
interface Settings {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxBodyBytes: number;
  maxRedirects: number;
  allowPrivateAddresses: boolean;
  dispatcher: Dispatcher;
  now: () => number;
  signal: AbortSignal | undefined;
}

/** One fetchFeed call in progress. */
interface Attempt {
  settings: Settings;
  deadline: Deadline;
  startedAt: number;
  currentUrl: string;
  redirects: Redirect[];
}

/**
 * Fetches a feed URL; never throws for network or HTTP trouble (it returns an error outcome).
 * An injected `dispatcher` replaces the shared guarded Agent: the scheme and literal-IP checks still apply,
 * but checking resolved addresses is then up to the dispatcher (build it with createGuardedAgent).
 */
export async function fetchFeed(request: FetchRequest, dispatcher?: Dispatcher): Promise<FetchOutcome> {
  const settings = resolveSettings(request, dispatcher);
  const attempt: Attempt = {
    settings,
    deadline: startDeadline(settings.timeoutMs, settings.signal),
    startedAt: performance.now(),
    currentUrl: settings.url,
    redirects: [],
  };
  try {
    return await followHops(attempt);
  } catch (error) {
    const failure = classifyFailure(error, {
      url: attempt.currentUrl,
      elapsedMs: performance.now() - attempt.startedAt,
      timeoutMs: settings.timeoutMs,
      connectTimeoutMs: settings.connectTimeoutMs,
      timedOut: attempt.deadline.timedOut(),
      aborted: settings.signal?.aborted === true,
    });
    return errorOutcome(attempt, failure);
  } finally {
    attempt.deadline.dispose();
  }
}

async function followHops(attempt: Attempt): Promise<FetchOutcome> {
  const { settings } = attempt;
  let url = parseStartUrl(settings);
  const visited = new Set<string>();
  for (;;) {
    visited.add(withoutHash(url));
    attempt.currentUrl = url.href;
    const response = await undiciRequest(requestTarget(url), {
      dispatcher: settings.dispatcher,
      method: 'GET',
      headers: withAuthorization(settings.headers, url),
      signal: attempt.deadline.signal,
      // Per-hop safety nets; the deadline timer is what normally ends a slow fetch.
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
    const statusClass = classifyStatus(response.statusCode);
    if (statusClass !== 'redirect') return finishResponse(attempt, response, statusClass);
    await drain(response.body);
    url = followRedirect({
      from: url,
      status: response.statusCode,
      location: headerValue(response.headers['location']),
      visited,
      redirects: attempt.redirects,
      maxRedirects: settings.maxRedirects,
      allowPrivateAddresses: settings.allowPrivateAddresses,
    });
  }
}

function parseStartUrl(settings: Settings): URL {
  let url: URL;
  try {
    url = new URL(settings.url);
  } catch (error) {
    throw new FetchError('invalid_url', { url: settings.url, cause: error });
  }
  const refusal = checkTarget(url, settings.allowPrivateAddresses);
  if (refusal !== undefined) throw refusal;
  return url;
}

async function finishResponse(
  attempt: Attempt,
  response: Dispatcher.ResponseData,
  statusClass: Exclude<StatusClass, 'redirect'>,
): Promise<FetchOutcome> {
  const headers = flattenHeaders(response.headers);
  const common = { url: attempt.currentUrl, redirects: attempt.redirects };
  if (statusClass === 'ok') return okOutcome(attempt, response, headers);
  if (statusClass === 'error') throw await statusError(attempt, response, headers);
  await drain(response.body);
  if (statusClass === 'gone') return { kind: 'gone', status: 410, ...common, durationMs: elapsed(attempt) };
  return {
    kind: 'not_modified',
    status: 304,
    ...common,
    ...definedFields({
      etag: headers['etag'],
      lastModified: headers['last-modified'],
      maxAgeSeconds: freshnessSeconds(headers, attempt.settings.now()),
    }),
    durationMs: elapsed(attempt),
  };
}

async function okOutcome(
  attempt: Attempt,
  response: Dispatcher.ResponseData,
  headers: Record<string, string>,
): Promise<FetchOutcome> {
  const { maxBodyBytes } = attempt.settings;
  const announced = Number(headers['content-length']);
  // A Content-Length over the limit is refused before reading a byte.
  if (Number.isFinite(announced) && announced > maxBodyBytes) {
    discardBody(response.body);
    const detail = ` (the server announced ${announced} bytes)`;
    throw new FetchError('too_large', { url: attempt.currentUrl, limitBytes: maxBodyBytes, detail });
  }
  const read = await readBody(response.body, {
    url: attempt.currentUrl,
    contentEncoding: headers['content-encoding'],
    maxBytes: maxBodyBytes,
    onLimit: 'error',
  });
  return {
    kind: 'ok',
    status: response.statusCode,
    url: attempt.currentUrl,
    body: read.body,
    headers,
    ...definedFields({
      contentType: headers['content-type'],
      etag: headers['etag'],
      lastModified: headers['last-modified'],
      maxAgeSeconds: freshnessSeconds(headers, attempt.settings.now()),
    }),
    redirects: attempt.redirects,
    bytes: read.bytes,
    transferredBytes: read.transferredBytes,
    durationMs: elapsed(attempt),
  };
}

async function statusError(
  attempt: Attempt,
  response: Dispatcher.ResponseData,
  headers: Record<string, string>,
): Promise<FetchError> {
  const status = response.statusCode;
  let sample: { body: Uint8Array; bytes: number } | undefined;
  if (needsBodySample(status)) {
    sample = await readBody(response.body, {
      url: attempt.currentUrl,
      contentEncoding: headers['content-encoding'],
      maxBytes: ERROR_SAMPLE_BYTES,
      onLimit: 'truncate',
    }).catch(() => undefined);
  } else {
    discardBody(response.body);
  }
  return errorForStatus({
    url: attempt.currentUrl,
    status,
    statusText: reasonPhrase(status, response.statusText),
    headers,
    ...definedFields({
      bodySample: sample?.body,
      bytes: sample?.bytes,
      retryAfterSeconds: parseRetryAfter(headers['retry-after'], attempt.settings.now()),
    }),
  });
}

function errorOutcome(attempt: Attempt, error: FetchError): FetchOutcome {
  return {
    kind: 'error',
    error,
    url: attempt.currentUrl,
    redirects: attempt.redirects,
    ...definedFields({
      status: error.status,
      retryAfterSeconds: error.retryAfterSeconds,
      bytes: error.context.bytes,
    }),
    durationMs: elapsed(attempt),
  };
}

function resolveSettings(request: FetchRequest, dispatcher: Dispatcher | undefined): Settings {
  if (typeof request !== 'object' || request === null || typeof request.url !== 'string') {
    throw new TypeError('fetchFeed: request.url must be a string');
  }
  const connectTimeoutMs = integerOption(
    'connectTimeoutMs',
    request.connectTimeoutMs,
    FETCH_DEFAULTS.connectTimeoutMs,
  );
  const allowPrivateAddresses = request.allowPrivateAddresses === true;
  return {
    url: request.url.trim(),
    headers: requestHeaders(request),
    timeoutMs: integerOption('timeoutMs', request.timeoutMs, FETCH_DEFAULTS.timeoutMs),
    connectTimeoutMs,
    maxBodyBytes: integerOption('maxBodyBytes', request.maxBodyBytes, FETCH_DEFAULTS.maxBodyBytes),
    maxRedirects: integerOption('maxRedirects', request.maxRedirects, FETCH_DEFAULTS.maxRedirects, 0),
    allowPrivateAddresses,
    dispatcher: dispatcher ?? getSharedAgent(allowPrivateAddresses, connectTimeoutMs),
    now: request.now ?? Date.now,
    signal: request.signal,
  };
}

function integerOption(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`fetchFeed: ${name} must be an integer of at least ${min}, not ${value}`);
  }
  return value;
}

// Redirect, 304 and 410 bodies are (nearly) empty: reading them to the end lets undici reuse the connection.
// dump() gives up and closes it past the limit.
function drain(body: Dispatcher.ResponseData['body']): Promise<void> {
  return body.dump({ limit: ERROR_SAMPLE_BYTES }).catch(() => undefined);
}

function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

// undici ignores user:password in a URL; the credentials travel in the Authorization header instead.
function requestTarget(url: URL): string {
  const copy = new URL(withoutHash(url));
  copy.username = '';
  copy.password = '';
  return copy.href;
}

function elapsed(attempt: Attempt): number {
  return Math.round(performance.now() - attempt.startedAt);
}

/** Returns the fields whose value is defined (exactOptionalPropertyTypes forbids `etag: undefined`). */
function definedFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
