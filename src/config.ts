/** Everything tidings reads from its environment, with the defaults the issue names. */
export interface Config {
  /** `sqlite:PATH` or `postgres://...` (TIDINGS_DATABASE_URL, --database). */
  databaseUrl: string;
  /** The regular poll interval (TIDINGS_POLL_INTERVAL, default 60m). */
  pollIntervalSeconds: number;
  /** Allow loopback and private addresses (TIDINGS_ALLOW_PRIVATE_ADDRESSES=true). */
  allowPrivateAddresses: boolean;
  /** Fetches at a time, in all and per host. */
  concurrency: number;
  perHostConcurrency: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Worker threads that parse fetched documents (TIDINGS_PARSE_WORKERS; default: one less than the cores, 0 parses in the main thread). */
  parseWorkers?: number;
  /** The time one document may take to parse in a worker thread (TIDINGS_PARSE_TIMEOUT_MS, default 30 s). */
  parseTimeoutMs?: number;
  /** Entries read from one document, the first ones (TIDINGS_MAX_ENTRIES_PER_FEED, default 5,000). */
  maxEntriesPerFeed?: number;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/tidings.db';

/** Reads the configuration from environment variables, with command-line overrides on top. */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  overrides: { databaseUrl?: string | undefined } = {},
): Config {
  return {
    databaseUrl: overrides.databaseUrl ?? env['TIDINGS_DATABASE_URL'] ?? DEFAULT_DATABASE_URL,
    pollIntervalSeconds: parseInterval(env['TIDINGS_POLL_INTERVAL'] ?? '60m'),
    allowPrivateAddresses: isTrue(env['TIDINGS_ALLOW_PRIVATE_ADDRESSES']),
    concurrency: positiveInt(env['TIDINGS_CONCURRENCY'], 32),
    perHostConcurrency: positiveInt(env['TIDINGS_PER_HOST_CONCURRENCY'], 2),
    timeoutMs: positiveInt(env['TIDINGS_FETCH_TIMEOUT_MS'], 30_000),
    maxBodyBytes: positiveInt(env['TIDINGS_MAX_BODY_BYTES'], 20 * 1024 * 1024),
    ...(env['TIDINGS_PARSE_WORKERS'] !== undefined
      ? { parseWorkers: nonNegativeInt(env['TIDINGS_PARSE_WORKERS']) }
      : {}),
    ...(env['TIDINGS_PARSE_TIMEOUT_MS'] !== undefined
      ? { parseTimeoutMs: positiveInt(env['TIDINGS_PARSE_TIMEOUT_MS'], 30_000) }
      : {}),
    ...(env['TIDINGS_MAX_ENTRIES_PER_FEED'] !== undefined
      ? { maxEntriesPerFeed: positiveInt(env['TIDINGS_MAX_ENTRIES_PER_FEED'], 5_000) }
      : {}),
  };
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`config: expected a whole number, got "${value}"`);
  return n;
}

function positiveInt(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`config: expected a positive integer, got "${value}"`);
  return n;
}

/** Parses an interval such as `5s`, `10m`, `2h`, `1d` (or plain seconds) into seconds. */
export function parseInterval(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(value);
  if (!match) throw new Error(`config: cannot read the interval "${value}" (use e.g. 30s, 10m, 2h)`);
  const n = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  const factor: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };
  return n * (factor[unit] as number);
}
