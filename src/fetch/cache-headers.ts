/** The Cache-Control directives a feed poller cares about (RFC 9111 section 5.2). */
export interface CacheControl {
  maxAgeSeconds?: number;
  sharedMaxAgeSeconds?: number;
  noStore: boolean;
  /** Only the unqualified `no-cache`; `no-cache="set-cookie"` restricts those fields, not the response. */
  noCache: boolean;
  mustRevalidate: boolean;
  immutable: boolean;
  /** Every directive as written, lower-cased names, unquoted values (`true` when it has none). */
  directives: Record<string, string | true>;
}

// RFC 9111 section 1.2.2: a delta-seconds too large to represent is taken as 2^31.
const MAX_DELTA_SECONDS = 2_147_483_648;

/** Returns the directives of a Cache-Control header value (an empty result for undefined). */
export function parseCacheControl(value: string | undefined): CacheControl {
  const directives: Record<string, string | true> = {};
  for (const [name, argument] of splitDirectives(value ?? '')) {
    // RFC 9111 section 4.2.1: with duplicate directives the first one is used.
    if (!(name in directives)) directives[name] = argument;
  }
  const result: CacheControl = {
    noStore: 'no-store' in directives,
    noCache: directives['no-cache'] === true,
    mustRevalidate: 'must-revalidate' in directives,
    immutable: 'immutable' in directives,
    directives,
  };
  const maxAge = parseDeltaSeconds(directives['max-age']);
  if (maxAge !== undefined) result.maxAgeSeconds = maxAge;
  const sharedMaxAge = parseDeltaSeconds(directives['s-maxage']);
  if (sharedMaxAge !== undefined) result.sharedMaxAgeSeconds = sharedMaxAge;
  return result;
}

function splitDirectives(value: string): [string, string | true][] {
  const out: [string, string | true][] = [];
  // name [= token | quoted-string], separated by commas; quoted strings may contain commas, and empty list
  // elements (`max-age=60,,public`) are allowed (RFC 9110 section 5.6.1).
  const pattern = /[\s,]*([^\s=,]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^,]*))?\s*(?:,|$)/y;
  let match = pattern.exec(value);
  while (match !== null && match[0] !== '') {
    const name = (match[1] ?? '').toLowerCase();
    const raw = match[2]?.trim();
    const argument =
      raw === undefined ? true : raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    out.push([name, argument]);
    match = pattern.exec(value);
  }
  return out;
}

function parseDeltaSeconds(value: string | true | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  return Math.min(Number(value), MAX_DELTA_SECONDS);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*';
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
// RFC 9110 section 5.6.7: IMF-fixdate, the obsolete RFC 850 form and asctime. Recipients must accept all three.
const IMF_FIXDATE = new RegExp(
  `^${DAY},\\s*(\\d{1,2})\\s+${MONTH}\\s+(\\d{4})\\s+${TIME}\\s+(?:GMT|UTC)$`,
  'i',
);
const RFC_850 = new RegExp(`^${DAY},\\s*(\\d{1,2})-${MONTH}-(\\d{2})\\s+${TIME}\\s+(?:GMT|UTC)$`, 'i');
const ASCTIME = new RegExp(`^${DAY}\\s+${MONTH}\\s+(\\d{1,2})\\s+${TIME}\\s+(\\d{4})$`, 'i');

/** Returns the epoch milliseconds of an HTTP date (RFC 9110 section 5.6.7), or undefined if it is not one. */
export function parseHttpDate(value: string): number | undefined {
  const text = value.trim();
  let m = IMF_FIXDATE.exec(text);
  if (m) return toEpochMs(m[3], m[2], m[1], m[4], m[5], m[6]);
  m = RFC_850.exec(text);
  if (m) {
    // Two-digit years: 70-99 are 19xx, the rest 20xx (the RFC's "50 years ahead" rule, fixed to today's range).
    const year = Number(m[3]) >= 70 ? `19${m[3]}` : `20${m[3]}`;
    return toEpochMs(year, m[2], m[1], m[4], m[5], m[6]);
  }
  m = ASCTIME.exec(text);
  if (m) return toEpochMs(m[6], m[1], m[2], m[3], m[4], m[5]);
  return undefined;
}

function toEpochMs(...parts: (string | undefined)[]): number | undefined {
  const [year, monthName, day, hour, minute, second] = parts;
  const month = MONTHS.indexOf((monthName ?? '').toLowerCase());
  const fields = [year, day, hour, minute, second].map(Number);
  const [y = Number.NaN, d = Number.NaN, h = Number.NaN, min = Number.NaN, s = Number.NaN] = fields;
  const ms = Date.UTC(y, month, d, h, min, s);
  // Date.UTC rolls 31 Feb over into March; such a date is not valid.
  const check = new Date(ms);
  if (Number.isNaN(ms) || check.getUTCDate() !== d || h > 23 || min > 59 || s > 60) return undefined;
  return ms;
}

/**
 * Returns the seconds to wait from a Retry-After value (RFC 9110 section 10.2.3): delta seconds, or an
 * HTTP date taken relative to `now`, at most a week. A date in the past gives 0; anything else unreadable
 * gives undefined.
 */
export function parseRetryAfter(value: string | undefined, now: number | Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  const at = parseHttpDate(text);
  if (at === undefined) return undefined;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil((at - Number(now)) / 1000)));
}

/**
 * The longest wait a Retry-After is honoured for: a week. A server asking for ten years (315360000 s) or
 * a date in 2036 stopped a feed for good, past even `--force`; a feed is never given up on that way.
 */
export const MAX_RETRY_AFTER_SECONDS = 7 * 24 * 3600;

/**
 * Returns how many more seconds the response stays fresh (RFC 9111 section 4.2): max-age (or s-maxage),
 * else Expires minus Date, minus Age; 0 for no-store and no-cache; undefined when the headers say nothing.
 * `headers` has lower-case names.
 */
export function freshnessSeconds(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const cacheControl = parseCacheControl(headers['cache-control']);
  if (cacheControl.noStore || cacheControl.noCache) return 0;
  const lifetime =
    cacheControl.maxAgeSeconds ?? cacheControl.sharedMaxAgeSeconds ?? expiresLifetime(headers, now);
  if (lifetime === undefined) return undefined;
  const age = parseDeltaSeconds(headers['age']?.trim()) ?? 0;
  return Math.max(0, lifetime - age);
}

function expiresLifetime(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const expires = headers['expires'];
  if (expires === undefined) return undefined;
  const expiresAt = parseHttpDate(expires);
  // RFC 9111 section 5.3: an invalid Expires, especially "0", means already expired.
  if (expiresAt === undefined) return 0;
  const date = headers['date'] === undefined ? undefined : parseHttpDate(headers['date']);
  return Math.max(0, Math.floor((expiresAt - (date ?? now)) / 1000));
}
