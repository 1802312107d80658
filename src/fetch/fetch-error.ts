import { FETCH_ERROR_KINDS, type FetchErrorKind } from '../model/index.js';

/** Everything known about a failed fetch; each kind uses the fields its message template needs. */
export interface FetchErrorContext {
  /** The URL being fetched when it failed (the current redirect hop). */
  url: string;
  status?: number;
  statusText?: string;
  /** Words that complete the template, e.g. the certificate problem or the DNS answer. */
  detail?: string;
  /** The underlying error code, e.g. `ECONNREFUSED` or `CERT_HAS_EXPIRED`. */
  code?: string;
  /** The resolved address that the SSRF guard refused. */
  address?: string;
  /** Which timer fired: the connect timeout or the total timeout (which covers headers and body). */
  phase?: 'connect' | 'total';
  timeoutMs?: number;
  elapsedMs?: number;
  limitBytes?: number;
  /** True when the limit was passed by the decompressed body (a decompression bomb). */
  decompressed?: boolean;
  maxRedirects?: number;
  /** The redirect target that looped or went past the limit. */
  target?: string;
  encoding?: string;
  retryAfterSeconds?: number;
  /** Body bytes read before the failure. */
  bytes?: number;
  cause?: unknown;
}

/** A fetch failure of a known kind, with a message a person understands (`fetch: ...`). */
export class FetchError extends Error {
  readonly kind: FetchErrorKind;
  readonly url: string;
  readonly host: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly elapsedMs: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly context: Readonly<FetchErrorContext>;

  constructor(kind: FetchErrorKind, context: FetchErrorContext) {
    super(
      renderFetchErrorMessage(kind, context),
      context.cause === undefined ? {} : { cause: context.cause },
    );
    this.name = 'FetchError';
    this.kind = kind;
    this.url = context.url;
    this.host = hostOf(context.url);
    this.status = context.status;
    this.code = context.code;
    this.elapsedMs = context.elapsedMs;
    this.retryAfterSeconds = context.retryAfterSeconds;
    this.context = context;
  }
}

/** Returns the catalogue message for `kind` with its placeholders filled from `context`. */
export function renderFetchErrorMessage(kind: FetchErrorKind, context: FetchErrorContext): string {
  const values = templateValues(context);
  return FETCH_ERROR_KINDS[kind].template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

function templateValues(context: FetchErrorContext): Record<string, string | undefined> {
  const timeMs = context.timeoutMs ?? context.elapsedMs;
  return {
    url: withoutCredentials(context.url),
    host: hostOf(context.url),
    scheme: schemeOf(context.url),
    status: context.status?.toString(),
    statusText: context.statusText,
    detail: context.detail,
    address: context.address,
    phase: context.phase === 'connect' ? 'connecting to' : 'waiting for',
    seconds: timeMs === undefined ? undefined : formatSeconds(timeMs),
    limit: limitText(context),
    target: context.target === undefined ? undefined : withoutCredentials(context.target),
    encoding: context.encoding,
    retry: context.retryAfterSeconds === undefined ? '' : `; retry after ${context.retryAfterSeconds} s`,
  };
}

function limitText(context: FetchErrorContext): string | undefined {
  if (context.limitBytes !== undefined) return formatBytes(context.limitBytes);
  return context.maxRedirects?.toString();
}

/** Returns a duration in seconds for messages: `30` for 30 000 ms, `0.25` for 250 ms. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(2)));
}

/** Returns a byte count in binary units for messages: `20 MiB`, `512 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

// Messages are stored and shown on the health page: the password of a private feed must not be in them.
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

function schemeOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return match?.[1]?.toLowerCase() ?? url;
}
