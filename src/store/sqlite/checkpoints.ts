import type { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { siblingModule, startWorker } from '../../worker-thread.js';
import type { CheckpointReport, CheckpointWorkerData } from './checkpoint-worker.js';

/** SQLite's default: the committing connection checkpoints once the WAL holds this many pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/**
 * While checkpoints run in the background, the committing connection checkpoints only past this many
 * pages (64 MB with the 8 KiB pages of a new database): a backstop should the background thread fall
 * behind or stop.
 */
const BACKSTOP_AUTOCHECKPOINT_PAGES = 8000;

/**
 * WAL checkpoints in a worker thread, for a process that writes much (a poll run). SQLite checkpoints
 * on the connection that commits, once the WAL passes 1,000 pages: storing 25,000 entries took 2.0 s
 * of the main thread (which also fetches) with those checkpoints and 1.1 s without, and a clean
 * 1,000-feed poll round (bench:poll) ran about 0.5 s faster with them moved here. Here the main
 * connection only writes, and after each group commit a second connection, in its own thread, copies
 * what it can (PASSIVE: it never blocks the writer). If that thread cannot start or stops, the main
 * connection checkpoints as before.
 */
export class BackgroundCheckpoints {
  #worker: Worker | undefined;
  #failed = false;
  #waiting = 0;
  readonly #reports: ((report: CheckpointReport) => void)[] = [];

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly path: string,
  ) {}

  /** Asks for a checkpoint (starting the thread on first use); requests made while one runs are merged. */
  request(): void {
    if (this.#failed) return;
    const worker = this.#worker ?? this.#start();
    if (worker === undefined || this.#waiting > 1) return;
    this.#waiting++;
    worker.postMessage('checkpoint');
  }

  /** Calls `listener` with each checkpoint's result (tests). */
  onReport(listener: (report: CheckpointReport) => void): void {
    this.#reports.push(listener);
  }

  /** Stops the thread and gives checkpoints back to the main connection. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failed = true;
    if (worker === undefined) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // held (not unref'd) until it has exited, so that the process waits for it rather than exiting mid-close
    worker.ref();
    worker.postMessage('stop');
    await exited;
    this.#restoreAutocheckpoint();
  }

  #start(): Worker | undefined {
    try {
      const workerData: CheckpointWorkerData = { path: this.path };
      const worker = startWorker(siblingModule(import.meta.url, 'checkpoint-worker'), { workerData });
      worker.unref();
      worker.on('message', (report: CheckpointReport) => {
        this.#waiting = Math.max(0, this.#waiting - 1);
        for (const listener of this.#reports) listener(report);
      });
      worker.on('error', () => this.#fail());
      worker.on('exit', () => this.#fail());
      this.database.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
      this.#worker = worker;
      return worker;
    } catch {
      this.#fail();
      return undefined;
    }
  }

  #fail(): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#worker = undefined;
    this.#restoreAutocheckpoint();
  }

  #restoreAutocheckpoint(): void {
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }
}
