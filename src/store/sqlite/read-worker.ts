import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { cachedPrepare, type Read, readTimed } from './statement-cache.js';

/** What the main thread hands a read thread. */
export interface ReadWorkerData {
  path: string;
  busyTimeoutMs: number;
}

/** One query for a read thread. */
export interface ReadRequest {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A read thread's answer: the rows and how long SQLite took; `notRead` when the statement would write (the main connection runs
 * it instead); or the error SQLite raised, as plain fields (an Error does not cross threads whole).
 */
export type ReadAnswer =
  | Read
  | { notRead: true }
  | { error: { message: string; code?: string | undefined; name: string } };

// The worker side of ReadPool (read-pool.ts): its own connection to the database, which it may only read
// (query_only), answering one query at a time. In WAL mode each statement reads the last committed state,
// so a read made after a write of the main connection sees it.
const { path, busyTimeoutMs } = workerData as ReadWorkerData;
const database = new BetterSqlite3(path, { fileMustExist: true });
database.pragma(`busy_timeout = ${busyTimeoutMs}`);
database.pragma('query_only = ON');
const prepare = cachedPrepare(database.prepare.bind(database));

/** A Buffer parameter arrives as a plain Uint8Array; better-sqlite3 binds blobs from Buffers. */
function bindable(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

function answer(request: ReadRequest): ReadAnswer {
  try {
    return readTimed(prepare, request.sql, request.parameters.map(bindable)) ?? { notRead: true };
  } catch (error) {
    const { message, name, code } = error as { message: string; name: string; code?: string };
    return { error: { message: String(message), name: String(name), code } };
  }
}

parentPort?.on('message', (message: ReadRequest | 'stop') => {
  if (message === 'stop') {
    database.close();
    parentPort?.close();
    return;
  }
  parentPort?.postMessage(answer(message));
});
