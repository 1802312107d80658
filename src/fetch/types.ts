import type { FetchError } from './fetch-error.js';

/** One feed fetch: the URL, the validators from the last fetch, and the limits. */
export interface FetchRequest {
  url: string;
  /** Sent as If-None-Match. */
  etag?: string;
  /** Sent as If-Modified-Since. */
  lastModified?: string;
  /** Default true; false sends no validators (the daily unconditional check). */
  conditional?: boolean;
  /** Per-feed override of DEFAULT_USER_AGENT. */
  userAgent?: string;
  /** Total time for every hop, headers and body; default 30 000. */
  timeoutMs?: number;
  /** Time to resolve and connect one socket; default 10 000. */
  connectTimeoutMs?: number;
  /** Default 20 MiB, enforced while streaming, on the wire and after decompression. */
  maxBodyBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Default false (SSRF guard); tests and home-lab users set true. */
  allowPrivateAddresses?: boolean;
  signal?: AbortSignal;
  /** The clock for Retry-After and Expires dates, in epoch ms; default Date.now (tests inject one). */
  now?: () => number;
}

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** One redirect hop; `to` is the absolute URL the Location resolved to. */
export interface Redirect {
  from: string;
  to: string;
  status: RedirectStatus;
  /** 301 and 308. */
  permanent: boolean;
}

/** How a fetch ended. `url` is the final URL (after redirects); `durationMs` covers every hop. */
export type FetchOutcome =
  | {
      kind: 'ok';
      status: number;
      url: string;
      body: Uint8Array;
      /** Lower-case names; repeated headers joined with ", ". */
      headers: Record<string, string>;
      contentType?: string;
      etag?: string;
      lastModified?: string;
      redirects: Redirect[];
      /** Seconds the response stays fresh (Cache-Control, Expires), 0 for no-store/no-cache. */
      maxAgeSeconds?: number;
      /** Decoded body bytes. */
      bytes: number;
      /** Bytes on the wire (compressed). */
      transferredBytes: number;
      durationMs: number;
    }
  | {
      kind: 'not_modified';
      status: 304;
      url: string;
      redirects: Redirect[];
      etag?: string;
      lastModified?: string;
      maxAgeSeconds?: number;
      durationMs: number;
    }
  | { kind: 'gone'; status: 410; url: string; redirects: Redirect[]; durationMs: number }
  | {
      kind: 'error';
      error: FetchError;
      status?: number;
      url: string;
      redirects: Redirect[];
      retryAfterSeconds?: number;
      durationMs: number;
      bytes?: number;
    };
