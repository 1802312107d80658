import type BetterSqlite3 from 'better-sqlite3';

// Kysely prepares every query anew; SQLite then parses and plans it again each time, which cost a third
// of a poll run's time on the feed farm (bench:poll). Recent statements are kept by their SQL text.
const STATEMENT_CACHE_SIZE = 256;

/** `prepare` answered from a bounded cache of the most recently used statements. */
export function cachedPrepare(
  prepare: (sql: string) => BetterSqlite3.Statement,
): (sql: string) => BetterSqlite3.Statement {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return (sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql);
    } else {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(sql, statement);
    return statement;
  };
}

/** The database with `prepare` answered from a bounded cache of recent statements. */
export function withStatementCache(database: BetterSqlite3.Database): BetterSqlite3.Database {
  const prepare = cachedPrepare(database.prepare.bind(database));
  return new Proxy(database, {
    get(target, key, receiver) {
      if (key !== 'prepare') return Reflect.get(target, key, receiver);
      return prepare;
    },
  });
}

/** Rows read, and how long SQLite took to read them (milliseconds). */
export interface Read {
  rows: unknown[];
  ms: number;
}

/**
 * The rows of `sql` and how long SQLite took, when the statement only reads; undefined when it would
 * write. The one way both the main connection and the read threads answer a read and time it.
 */
export function readTimed(
  prepare: (sql: string) => BetterSqlite3.Statement,
  sql: string,
  parameters: readonly unknown[],
): Read | undefined {
  const statement = prepare(sql);
  if (!statement.reader) return undefined;
  const started = performance.now();
  const rows = readRows(statement, parameters);
  return { rows, ms: performance.now() - started };
}

// Each statement's column names (statement.columns() costs as much as building a few rows).
const columnNames = new WeakMap<BetterSqlite3.Statement, string[]>();

/**
 * The statement's rows as objects keyed by column name, as `all()` gives them. better-sqlite3 builds
 * each row object in C++, a property at a time; read as arrays and built here, objects of the same
 * columns share one shape, and a 20-row timeline page of ten columns is read in two thirds of the time
 * (bench:serve). The statement is left in its usual (object) mode: Kysely's driver shares it.
 */
function readRows(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): unknown[] {
  let names = columnNames.get(statement);
  if (names === undefined) {
    names = statement.columns().map((column) => column.name);
    columnNames.set(statement, names);
  }
  if (names.includes('__proto__')) return statement.all(parameters);
  statement.raw(true);
  let arrays: unknown[][];
  try {
    arrays = statement.all(parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
  // SQLite prepares a statement again when the schema changed under it (another process migrating):
  // a `select *` may then have other columns
  if (arrays.length > 0 && (arrays[0] as unknown[]).length !== names.length) {
    names = statement.columns().map((column) => column.name);
    columnNames.set(statement, names);
  }
  const rows = new Array<Record<string, unknown>>(arrays.length);
  for (let i = 0; i < arrays.length; i++) {
    const values = arrays[i] as unknown[];
    const row: Record<string, unknown> = {};
    for (let j = 0; j < names.length; j++) row[names[j] as string] = values[j];
    rows[i] = row;
  }
  return rows;
}
