import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

/** What the main thread hands the checkpoint worker. */
export interface CheckpointWorkerData {
  path: string;
}

/** The worker's answer to each request: frames in the WAL and frames copied into the database. */
export interface CheckpointReport {
  log: number;
  checkpointed: number;
}

// The worker side of BackgroundCheckpoints (checkpoints.ts): its own connection to the database, one
// PASSIVE checkpoint per request. PASSIVE never waits for the writer or for readers: it copies what it
// can now, and the next request copies the rest.
const { path } = workerData as CheckpointWorkerData;
const database = new BetterSqlite3(path, { fileMustExist: true });
database.pragma('synchronous = NORMAL');

parentPort?.on('message', (message: 'checkpoint' | 'stop') => {
  if (message === 'stop') {
    database.close();
    parentPort?.close();
    return;
  }
  try {
    const [row] = database.pragma('wal_checkpoint(PASSIVE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    parentPort?.postMessage({ log: row?.log ?? 0, checkpointed: row?.checkpointed ?? 0 });
  } catch {
    // SQLITE_BUSY: another checkpoint is running; the next request tries again
    parentPort?.postMessage({ log: -1, checkpointed: -1 });
  }
});
