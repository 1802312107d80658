import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../../worker-thread.js';
import type { ReadAnswer, ReadRequest, ReadWorkerData } from './read-worker.js';
import type { Read } from './statement-cache.js';

/** A query the pool could not answer for a reason of its own (no thread left): run it elsewhere. */
export const UNANSWERED = Symbol('unanswered');

interface Job {
  request: ReadRequest;
  resolve: (read: Read | typeof UNANSWERED) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  job: Job | undefined;
}

/** An error raised by SQLite in a read thread, with its code (SQLITE_BUSY, ...) as the driver's are. */
function sqliteError(fields: { message: string; name: string; code?: string | undefined }): Error {
  const error = new Error(fields.message) as Error & { code?: string };
  error.name = fields.name;
  if (fields.code !== undefined) error.code = fields.code;
  return error;
}

/** A blob column arrives as a plain Uint8Array; the store's code reads Buffers, as better-sqlite3 gives. */
function withBuffers(rows: unknown[]): unknown[] {
  for (const row of rows) {
    if (row === null || typeof row !== 'object') continue;
    const record = row as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value))
        record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

/**
 * Worker threads, each with a connection that only reads the SQLite database at `path`, answering the
 * queries that only read (issue 14: "HTTP never waits for another request's query"). better-sqlite3
 * runs a query on the thread that calls it; on the main thread a slow page (a search through many
 * matches) held every other request behind it. Queries wait in one queue, first come first served, for
 * the next free thread. A thread that fails is not replaced: once none is left, `run` answers UNANSWERED
 * and the caller reads on its own connection, as it did without the pool.
 */
export class ReadPool {
  readonly #threads: Thread[] = [];
  readonly #queue: Job[] = [];
  #closed = false;

  #started = false;

  /** Threads start with the first query that asks for them (`run`). */
  constructor(
    private readonly path: string,
    private readonly threads: number,
    private readonly busyTimeoutMs: number,
  ) {}

  /** True once the threads were started. */
  get started(): boolean {
    return this.#started;
  }

  #start(): void {
    this.#started = true;
    const workerData: ReadWorkerData = { path: this.path, busyTimeoutMs: this.busyTimeoutMs };
    for (let i = 0; i < this.threads; i++) {
      const worker = startWorker(siblingModule(import.meta.url, 'read-worker'), { workerData });
      // referenced only while it answers a query, so that an idle pool never keeps the process alive
      worker.unref();
      const thread: Thread = { worker, job: undefined };
      worker.on('message', (answer: ReadAnswer) => this.#answered(thread, answer));
      worker.on('error', () => this.#lost(thread));
      worker.on('exit', () => this.#lost(thread));
      this.#threads.push(thread);
    }
  }

  /** The threads still answering. */
  get size(): number {
    return this.#threads.length;
  }

  /** The rows of a query that only reads, or UNANSWERED when it writes or no thread is left. */
  run(request: ReadRequest): Promise<Read | typeof UNANSWERED> {
    if (!this.#started && !this.#closed) this.#start();
    if (this.#closed || this.#threads.length === 0) return Promise.resolve(UNANSWERED);
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, resolve, reject });
      this.#dispatch();
    });
  }

  /** Stops the threads once the queries they hold are answered; later queries are UNANSWERED. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.resolve(UNANSWERED);
    const threads = this.#threads.splice(0);
    await Promise.all(
      threads.map((thread) => {
        const exited = new Promise((resolve) => thread.worker.once('exit', resolve));
        thread.worker.ref();
        thread.worker.postMessage('stop');
        return exited;
      }),
    );
  }

  #dispatch(): void {
    for (const thread of this.#threads) {
      if (this.#queue.length === 0) return;
      if (thread.job !== undefined) continue;
      const job = this.#queue.shift() as Job;
      thread.job = job;
      thread.worker.ref();
      thread.worker.postMessage(job.request);
    }
  }

  #answered(thread: Thread, answer: ReadAnswer): void {
    const job = thread.job;
    thread.job = undefined;
    thread.worker.unref();
    if (job !== undefined) {
      if ('rows' in answer) job.resolve({ rows: withBuffers(answer.rows), ms: answer.ms });
      else if ('notRead' in answer) job.resolve(UNANSWERED);
      else job.reject(sqliteError(answer.error));
    }
    this.#dispatch();
  }

  #lost(thread: Thread): void {
    const at = this.#threads.indexOf(thread);
    if (at === -1) return;
    this.#threads.splice(at, 1);
    const job = thread.job;
    thread.job = undefined;
    // the query it held is asked again elsewhere: it only read
    if (job !== undefined) this.#queue.unshift(job);
    if (this.#threads.length === 0) for (const waiting of this.#queue.splice(0)) waiting.resolve(UNANSWERED);
    else this.#dispatch();
  }
}
