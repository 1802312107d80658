import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from 'kysely';
import { type ReadPool, UNANSWERED } from './read-pool.js';

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
    private readonly pool: ReadPool,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#main === undefined && onlyReads(query)) {
      const rows = await this.pool.run({ sql: query.sql, parameters: query.parameters });
      if (rows !== UNANSWERED) return { rows: rows as R[] };
    }
    return (await this.main()).executeQuery<R>(query);
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
 * The SQLite driver with reads outside transactions answered by a pool of read threads (read-pool.ts):
 * the main connection, on the main thread, then only writes, one transaction at a time as before.
 */
export class RoutingDriver implements Driver {
  constructor(
    private readonly main: Driver,
    private readonly pool: ReadPool,
  ) {}

  init(): Promise<void> {
    return this.main.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.main, this.pool);
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
    await this.pool.close();
    await this.main.destroy();
  }
}
