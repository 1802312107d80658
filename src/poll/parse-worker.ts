import { parentPort } from 'node:worker_threads';
import { type PrepareJob, prepareDocument } from './prepare.js';

/** The worker side of the parse pool: one job in, one prepared document (or an error message) out. */
parentPort?.on('message', (message: { id: number; job: PrepareJob }) => {
  try {
    parentPort?.postMessage({ id: message.id, document: prepareDocument(message.job) });
  } catch (err) {
    parentPort?.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) });
  }
});
