import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { type ReadPool, UNANSWERED } from './read-pool.js';
import type { ReadTimes } from './read-times.js';
import type { Read } from './statement-cache.js';

/** Reads on the main connection, when it holds no transaction; UNANSWERED when it does or the query writes. */
export type InlineReader = (sql: string, parameters: readonly unknown[]) => Read | typeof UNANSWERED;

/** Where a read is answered: the read threads, and inline for reads known to be fast. */
export interface ReadRoutes {
  pool: ReadPool;
  inline: InlineReader;
  times: ReadTimes;
}

/** True for a query that only reads: a SELECT built with Kysely, or raw SQL that starts with SELECT. */
function onlyReads(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (kind === 'SelectQueryNode') return true;
  return kind === 'RawNode' && /^\s*select\b/i.test(query.sql);
}

/**
 * A connection handed out by RoutingDriver. Outside a transaction its reads go to the read pool; a write,
 * or anything in a transaction, takes the main connection (and with it the one writer's turn) until
 * Kysely releases it.
 */
class RoutedConnection implements DatabaseConnection {
  #main: DatabaseConnection | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly routes: ReadRoutes,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#main === undefined && onlyReads(query)) {
      const read = await this.#read(query);
      if (read !== UNANSWERED) return { rows: read.rows as R[] };
    }
    return (await this.main()).executeQuery<R>(query);
  }

  /** A read answered inline or by a read thread, as ReadTimes says; timed either way. */
  async #read(query: CompiledQuery): Promise<Read | typeof UNANSWERED> {
    const { pool, inline, times } = this.routes;
    let read =
      times.route(query.sql, pool.started) === 'inline' ? inline(query.sql, query.parameters) : UNANSWERED;
    if (read === UNANSWERED) read = await pool.run({ sql: query.sql, parameters: query.parameters });
    if (read !== UNANSWERED) times.record(query.sql, read.ms);
    return read;
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.main()).streamQuery<R>(query, chunkSize);
  }

  /** The main connection, taken (waiting for the writer's turn) on first use. */
  async main(): Promise<DatabaseConnection> {
    this.#main ??= await this.driver.acquireConnection();
    return this.#main;
  }

  async begin(settings: TransactionSettings): Promise<void> {
    await this.driver.beginTransaction(await this.main(), settings);
  }

  async end(commit: boolean): Promise<void> {
    const main = await this.main();
    if (commit) await this.driver.commitTransaction(main);
    else await this.driver.rollbackTransaction(main);
  }

  async release(): Promise<void> {
    const main = this.#main;
    this.#main = undefined;
    if (main !== undefined) await this.driver.releaseConnection(main);
  }
}

/**
 * The SQLite driver with reads outside transactions answered by a pool of read threads (read-pool.ts)
 * when they were lately slow, and by the main connection at once when they were lately fast and it holds
 * no transaction (read-times.ts). The main connection writes, one transaction at a time as before.
 */
export class RoutingDriver implements Driver {
  constructor(
    private readonly main: Driver,
    private readonly routes: ReadRoutes,
  ) {}

  init(): Promise<void> {
    return this.main.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.main, this.routes);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return (connection as RoutedConnection).begin(settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as RoutedConnection).end(true);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as RoutedConnection).end(false);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    await this.routes.pool.close();
    await this.main.destroy();
  }
}
