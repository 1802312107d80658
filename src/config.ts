/** Everything tidings reads from its environment, with the defaults the issue names. */
export interface Config {
  /** `sqlite:PATH` or `postgres://...` (TIDINGS_DATABASE_URL, --database). */
  databaseUrl: string;
  /** The regular poll interval (TIDINGS_POLL_INTERVAL, default 60m). */
  pollIntervalSeconds: number;
  /**
   * How many times the interval a feed's cadence or its hints (ttl, max-age) may stretch it
   * (TIDINGS_ADAPTIVE_MAX, default 4; 1 turns stretching off). Absent means the default.
   */
  adaptiveMax?: number;
  /** Allow loopback and private addresses (TIDINGS_ALLOW_PRIVATE_ADDRESSES=true). */
  allowPrivateAddresses: boolean;
  /** Fetches at a time, in all and per host. */
  concurrency: number;
  perHostConcurrency: number;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Worker threads that parse fetched documents (TIDINGS_PARSE_WORKERS; default: one less than the cores, 0 parses in the main thread). */
  parseWorkers?: number;
  /** Look for feed icons while polling; on unless false (the tests turn it off: their feeds name sites on the internet). */
  feedIcons?: boolean;
  /** The time one document may take to parse in a worker thread (TIDINGS_PARSE_TIMEOUT_MS, default 30 s). */
  parseTimeoutMs?: number;
  /** Entries read from one document, the first ones (TIDINGS_MAX_ENTRIES_PER_FEED, default 5,000). */
  maxEntriesPerFeed?: number;
  /**
   * SQLite under `serve`: threads that answer the web UI's and the APIs' reads (TIDINGS_READ_THREADS;
   * default 2, 0 reads on the main thread).
   */
  readThreads?: number;
  /** Serve `/metrics` in the Prometheus text format (TIDINGS_METRICS=true); off unless set. */
  metrics?: boolean;
  /**
   * The bearer token `/metrics` asks for (TIDINGS_METRICS_TOKEN); without one only loopback clients
   * are answered.
   */
  metricsToken?: string;
  /** Failed polls in a row that make a feed.failing alert (TIDINGS_ALERT_AFTER); absent means 3. */
  alertAfter?: number;
  /** Where tidings is reached, without a trailing slash (TIDINGS_BASE_URL): alerts link to the feed's page. */
  baseUrl?: string;
  /** The SMTP server alert emails go through (TIDINGS_SMTP_URL: smtp://[user:pass@]host:port, smtps:// for TLS). */
  smtpUrl?: string;
  /** The From address of alert emails (TIDINGS_MAIL_FROM). */
  mailFrom?: string;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/tidings.db';

/** A setting that cannot be read; the message names the variable and says what it takes. */
export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/** Reads the configuration from environment variables, with command-line overrides on top. */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  overrides: { databaseUrl?: string | undefined } = {},
): Config {
  return {
    databaseUrl: overrides.databaseUrl ?? env['TIDINGS_DATABASE_URL'] ?? DEFAULT_DATABASE_URL,
    pollIntervalSeconds: intervalVariable(env, 'TIDINGS_POLL_INTERVAL', '60m'),
    adaptiveMax: factorOf(env, 'TIDINGS_ADAPTIVE_MAX', 4),
    allowPrivateAddresses: flag(env, 'TIDINGS_ALLOW_PRIVATE_ADDRESSES') ?? false,
    concurrency: positiveInt(env, 'TIDINGS_CONCURRENCY', 32),
    perHostConcurrency: positiveInt(env, 'TIDINGS_PER_HOST_CONCURRENCY', 2),
    timeoutMs: positiveInt(env, 'TIDINGS_FETCH_TIMEOUT_MS', 30_000),
    maxBodyBytes: positiveInt(env, 'TIDINGS_MAX_BODY_BYTES', 20 * 1024 * 1024),
    ...optionalFlag('feedIcons', flag(env, 'TIDINGS_FEED_ICONS')),
    ...((env['TIDINGS_PARSE_WORKERS'] ?? '').trim() !== ''
      ? { parseWorkers: nonNegativeInt(env, 'TIDINGS_PARSE_WORKERS') }
      : {}),
    ...((env['TIDINGS_PARSE_TIMEOUT_MS'] ?? '').trim() !== ''
      ? { parseTimeoutMs: positiveInt(env, 'TIDINGS_PARSE_TIMEOUT_MS', 30_000) }
      : {}),
    ...((env['TIDINGS_READ_THREADS'] ?? '').trim() !== ''
      ? { readThreads: nonNegativeInt(env, 'TIDINGS_READ_THREADS') }
      : {}),
    ...((env['TIDINGS_MAX_ENTRIES_PER_FEED'] ?? '').trim() !== ''
      ? { maxEntriesPerFeed: positiveInt(env, 'TIDINGS_MAX_ENTRIES_PER_FEED', 5_000) }
      : {}),
    ...(flag(env, 'TIDINGS_METRICS') === true ? { metrics: true } : {}),
    ...((env['TIDINGS_METRICS_TOKEN'] ?? '').trim() !== ''
      ? { metricsToken: (env['TIDINGS_METRICS_TOKEN'] as string).trim() }
      : {}),
    alertAfter: positiveInt(env, 'TIDINGS_ALERT_AFTER', 3),
    ...optional('baseUrl', baseUrl(env, 'TIDINGS_BASE_URL')),
    ...optional('smtpUrl', smtpUrl(env)),
    ...optional('mailFrom', mailbox(env, 'TIDINGS_MAIL_FROM')),
  };
}

/** `{ [key]: value }`, or nothing when the value is undefined (exactOptionalPropertyTypes). */
function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: string });
}

function optionalFlag<K extends string>(key: K, value: boolean | undefined): { [P in K]?: boolean } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: boolean });
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = (env[name] ?? '').trim();
  return value === '' ? undefined : value;
}

/** An http(s) URL without its trailing slashes. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw new ConfigError(name, `config: ${name} must be an http or https URL, not ${JSON.stringify(value)}`);
  return value.replace(/\/+$/, '');
}

/** Where tidings is reached: an http(s) URL with no user, query or fragment (WebSub callbacks and links go under it). */
function baseUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = httpUrl(env, name);
  if (value === undefined) return undefined;
  const url = new URL(value);
  if (
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '' ||
    /[?#]/.test(value)
  )
    throw new ConfigError(
      name,
      `config: ${name} must be where tidings is reached, such as https://reader.example.com, without a user, query or fragment`,
    );
  return value;
}

// An address as mail headers carry it: local@domain, or a display name with it in angle brackets.
const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

/** A From address: `alerts@example.com` or `tidings <alerts@example.com>`, on one line. */
function mailbox(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = (env[name] ?? '').trim();
  if (value === '') return undefined;
  const named = /^([^<>]*)<([^<>]+)>$/.exec(value);
  const address = named ? (named[2] as string).trim() : value;
  // a control character (a CR/LF would add a header) is refused, never cleaned away
  if (/\p{Cc}/u.test(value) || !ADDRESS.test(address))
    throw new ConfigError(
      name,
      `config: ${name} must be an email address such as alerts@example.com or "tidings <alerts@example.com>", not ${JSON.stringify(value.slice(0, 100))}`,
    );
  return value;
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const name = 'TIDINGS_SMTP_URL';
  const value = text(env, name);
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^smtps?:$/.test(new URL(value).protocol) || new URL(value).hostname === '')
    throw new ConfigError(
      name,
      `config: ${name} must look like smtp://[user:pass@]host:port (smtps:// for TLS), not ${JSON.stringify(value.replace(/\/\/[^@/]*@/, '//***@'))}`,
    );
  return value;
}

function intervalVariable(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const value = (env[name] ?? '').trim() === '' ? fallback : (env[name] as string);
  try {
    return parseInterval(value);
  } catch {
    throw new ConfigError(
      name,
      `config: ${name} must be an interval such as 30s, 10m, 2h or 1d, not ${JSON.stringify(value)}`,
    );
  }
}

/** A yes-or-no variable: 1/true/yes/on or 0/false/no/off (any case); unset or empty is undefined. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (value === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(
    name,
    `config: ${name} must be true or false (also 1/0, yes/no, on/off), not ${JSON.stringify((env[name] ?? '').slice(0, 100))}`,
  );
}

// A factor of at least 1 (1.5 is fine); 1 means no stretching at all.
function factorOf(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1)
    throw new ConfigError(
      name,
      `config: ${name} must be a number of at least 1, not ${JSON.stringify(value)}`,
    );
  return n;
}

function nonNegativeInt(env: NodeJS.ProcessEnv, name: string): number {
  const value = env[name] ?? '';
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0)
    throw new ConfigError(
      name,
      `config: ${name} must be a whole number (0 or more), not ${JSON.stringify(value)}`,
    );
  return n;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(
      name,
      `config: ${name} must be a positive whole number, not ${JSON.stringify(value)}`,
    );
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
