import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Backend } from '../backend.js';
import { redactPassword } from '../redact.js';
import type { Database } from '../schema.js';
import { Store } from '../store.js';
import { StoreError } from '../store-error.js';
import { claimDueFeeds } from './claim.js';

/** BIGINT ids and counts arrive as numbers, not strings; our ids stay far below 2^53. */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new StoreError('invalid', `store: int8 ${text} exceeds 2^53`);
  return value;
}

// Per pool rather than pg.types.setTypeParser, which would change every pg user in the process.
const getTypeParser = ((oid: number, format?: 'text' | 'binary') =>
  oid === pg.types.builtins.INT8 && format !== 'binary'
    ? parseInt8
    : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser;

const postgresBackend: Backend = {
  dialect: 'postgres',
  claimDueFeeds,
  // Two processes starting at once would both see a migration as pending; the transaction-scoped lock
  // makes the second wait and then find it recorded. The key names the schema migrated, so that stores
  // in other schemas of the database (the tests give each store its own) do not wait on each other.
  lockMigrations: async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('tidings migrations ' || coalesce(current_schema(), ''), 0))`.execute(
      trx,
    );
  },
};

/** Opens a pool on the PostgreSQL database at `url` and checks that it answers. */
export async function openPostgresStore(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, types: { getTypeParser } });
  // An idle client can die (server restart, network): without a listener that error would end the
  // process. The pool drops the client, and the next query reports the problem to its caller.
  pool.on('error', () => {});
  // Unread counts over 100,000 entries are estimated costly enough for JIT compilation, which then
  // takes 300 ms of an 800 ms query (scale measurements in the store tests): our queries are short and
  // many, the case the PostgreSQL manual says JIT does not pay off for. Queued before any other query.
  pool.on('connect', (client) => {
    client.query('SET jit = off').catch(() => {});
    // The pool listens to its clients only while they are idle: a client whose connection dies while
    // checked out (a query under way when the server restarts or the network drops) emitted 'error' to
    // nobody, and Node ended the process (node-postgres #1449, #2439). Its queries are rejected all the
    // same, and the pool drops it when it is released.
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
  } catch (cause) {
    await db.destroy();
    const reason =
      cause instanceof Error && cause.message !== '' ? `: ${cause.message.split('\n', 1)[0]}` : '';
    throw new StoreError('unavailable', `store: cannot reach PostgreSQL at ${redactPassword(url)}${reason}`, {
      cause,
    });
  }
  return new Store(db, postgresBackend);
}
