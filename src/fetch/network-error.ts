import type { FetchErrorKind } from '../model/index.js';
import { FetchError } from './fetch-error.js';

/** What the fetch loop knows when a request throws. */
export interface FailureContext {
  url: string;
  elapsedMs: number;
  timeoutMs: number;
  connectTimeoutMs: number;
  /** The overall timer fired (it aborts the request with its own reason). */
  timedOut: boolean;
  /** The caller's AbortSignal fired. */
  aborted: boolean;
}

// OpenSSL verification codes (as Node reports them) in words a person can act on.
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  CERT_REVOKED: 'the certificate has been revoked',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the certificate chain ends in an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate chain is incomplete (a missing intermediate certificate)',
  UNABLE_TO_GET_ISSUER_CERT: 'the certificate was issued by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate was issued by an unknown authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not name this host',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak TLS on this port',
};

const SIMPLE_KINDS: Record<string, FetchErrorKind> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NODATA: 'dns',
  EAI_NONAME: 'dns',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  ECONNABORTED: 'connection_reset',
  // undici: "other side closed" when the server drops the socket mid-response.
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
};

/** Returns the FetchError for anything a request threw: timers first, then the error code found. */
export function classifyFailure(error: unknown, context: FailureContext): FetchError {
  const base = { url: context.url, elapsedMs: Math.round(context.elapsedMs), cause: error };
  if (error instanceof FetchError) {
    // The guard's lookup knows only the host; re-anchor its error on the URL being fetched. An error that
    // names a whole URL of its own (a redirect's target the guard refused: file:, ftp:) keeps it.
    if (error.url === context.url || /^[a-z][a-z0-9+.-]*:/i.test(error.url)) return error;
    return new FetchError(error.kind, { ...error.context, ...base });
  }
  if (context.timedOut)
    return new FetchError('timeout', { ...base, phase: 'total', timeoutMs: context.timeoutMs });
  if (context.aborted) return new FetchError('aborted', base);
  const code = findCode(error);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return new FetchError('timeout', {
      ...base,
      code,
      phase: 'connect',
      timeoutMs: context.connectTimeoutMs,
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new FetchError('timeout', { ...base, code, phase: 'total', timeoutMs: context.timeoutMs });
  }
  if (code === undefined) return new FetchError('network', { ...base, detail: messageOf(error) });
  const simple = SIMPLE_KINDS[code];
  if (simple === 'dns') return new FetchError('dns', { ...base, code, detail: dnsDetail(code) });
  if (simple !== undefined) return new FetchError(simple, { ...base, code });
  if (isTlsCode(code)) return new FetchError('tls', { ...base, code, detail: tlsDetail(code, error) });
  if (code.startsWith('HPE_') || code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new FetchError('protocol', { ...base, code, detail: messageOf(error) });
  }
  return new FetchError('network', {
    ...base,
    code,
    detail: NETWORK_DETAILS[code] ?? `${code}: ${messageOf(error)}`,
  });
}

const NETWORK_DETAILS: Record<string, string> = {
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EADDRNOTAVAIL: 'no local address can reach it',
};

/**
 * Returns the first error code in the error, its `cause` chain or its `errors` list: undici wraps socket
 * errors in `cause`, and Node's happy-eyeballs connect reports an AggregateError of every address tried.
 */
function findCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  if ('cause' in error) {
    const fromCause = findCode(error.cause, depth + 1);
    if (fromCause !== undefined) return fromCause;
  }
  if ('errors' in error && Array.isArray(error.errors)) {
    for (const inner of error.errors) {
      const code = findCode(inner, depth + 1);
      if (code !== undefined) return code;
    }
  }
  return undefined;
}

function isTlsCode(code: string): boolean {
  return (
    code in CERTIFICATE_PROBLEMS ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)
  );
}

function tlsDetail(code: string, error: unknown): string {
  return CERTIFICATE_PROBLEMS[code] ?? `${messageOf(error)} (${code})`;
}

function dnsDetail(code: string): string {
  if (code === 'EAI_AGAIN') return 'the DNS server did not answer; it may be temporary';
  return 'no such host';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
