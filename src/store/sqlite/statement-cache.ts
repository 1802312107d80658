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
  const rows = statement.all(parameters);
  return { rows, ms: performance.now() - started };
}
