/**
 * What went wrong in the store, for callers that answer differently (404 versus 400):
 * `unavailable` is the database itself failing (unreachable, cannot be opened, disk full, read-only),
 * `config` a database URL tidings cannot use.
 */
export type StoreErrorKind = 'not_found' | 'conflict' | 'invalid' | 'unavailable' | 'config';

/** A store call that cannot be done as asked (unknown channel, bad timestamp, unsupported URL). */
export class StoreError extends Error {
  readonly kind: StoreErrorKind;

  constructor(kind: StoreErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.kind = kind;
  }
}

// SQLite result codes (better-sqlite3's SqliteError.code) that say the database, not the query, failed.
const SQLITE_FAULT = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|BUSY|LOCKED|PERM|NOMEM|AUTH)/;
// PostgreSQL SQLSTATE classes of the same kind: connection (08), insufficient resources such as a full disk
// (53), operator intervention such as a shutdown (57), system errors (58), a read-only transaction (25006),
// an unknown database or refused login (3D, 28), and a database that does not accept connections now
// (55000, ALTER DATABASE ... ALLOW_CONNECTIONS false, as during maintenance).
const POSTGRES_FAULT = /^(08|53|57|58|3D|28)|^(25006|55000)$/;
// Node's own errors for a socket or a file that cannot be used.
const SYSTEM_FAULT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EISDIR',
  'ENOENT',
  'EEXIST',
]);

/**
 * The error as a StoreError 'unavailable' when it says the database itself failed (a full disk, a
 * read-only file, a lost connection), naming what was being done; undefined for any other error (a bug,
 * a constraint), which callers treat as before. A StoreError 'unavailable' is returned as it is.
 */
export function storeFault(error: unknown, doing: string): StoreError | undefined {
  if (error instanceof StoreError) return error.kind === 'unavailable' ? error : undefined;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const isFault =
    typeof code === 'string'
      ? SQLITE_FAULT.test(code) || POSTGRES_FAULT.test(code) || SYSTEM_FAULT.has(code)
      : /^Connection terminated|connection timeout/i.test(error.message);
  if (!isFault) return undefined;
  const detail = typeof code === 'string' && !error.message.includes(code) ? ` (${code})` : '';
  return new StoreError('unavailable', `store: ${doing} failed: ${firstLine(error.message)}${detail}`, {
    cause: error,
  });
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
