import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../worker-thread.js';
import type { PreparedDocument, PrepareJob } from './prepare.js';

/** Prepares documents: in worker threads, or in this thread when there are none. */
export interface Preparer {
  prepare(job: PrepareJob): Promise<PreparedDocument>;
  /** Starts the threads now rather than on the first document, so that they load while the caller opens the store. */
  warmUp?(): void;
  close(): Promise<void>;
}

/** A document that took longer than the pool's time limit to parse: its worker was stopped and replaced. */
export class ParseTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`parse: the document took longer than ${formatSeconds(timeoutMs)} to parse; parsing was stopped`);
    this.name = 'ParseTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** Prepares in this thread (tests, one-core machines); the parser is loaded on the first document. */
export const inProcessPreparer: Preparer = {
  prepare: async (job) => (await import('./prepare.js')).prepareDocument(job),
  close: async () => {},
};

/** The number of parse workers by default: one core for them, one for fetching and the database. */
export function defaultParseWorkers(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, 4));
}

/** The time one document may take to parse in a worker, by default (TIDINGS_PARSE_TIMEOUT_MS). */
export const DEFAULT_PARSE_TIMEOUT_MS = 30_000;

interface Job {
  id: number;
  job: PrepareJob;
  resolve: (document: PreparedDocument) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The job the worker is running; a worker runs one at a time, so a time limit blames only it. */
  running: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A pool of worker threads that parse and prepare documents, one at a time each, in the order asked. A
 * document that takes longer than `timeoutMs` fails with ParseTimeoutError: its worker is terminated and
 * replaced, so that no document can hold up a poll. A worker that dies fails only its own job and is
 * replaced. The threads start with the first document (or `warmUp`): commands that never parse do not
 * pay for them.
 */
export class ParsePool implements Preparer {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    /** The time limit per document (ms); a change applies to the documents dispatched after it. */
    public timeoutMs = DEFAULT_PARSE_TIMEOUT_MS,
  ) {}

  /** Threads running. */
  get threadCount(): number {
    return this.slots.length;
  }

  warmUp(): void {
    while (!this.closed && this.slots.length < this.size) this.slots.push(this.spawn());
  }

  prepare(job: PrepareJob): Promise<PreparedDocument> {
    if (this.closed) return Promise.reject(new Error('poll: the parse pool is closed'));
    this.warmUp();
    return new Promise<PreparedDocument>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) this.settle(slot, new Error('poll: the parse pool was closed'));
    for (const job of this.waiting.splice(0)) job.reject(new Error('poll: the parse pool was closed'));
    await Promise.all(slots.map(({ worker }) => worker.terminate()));
  }

  // Gives waiting jobs to idle workers.
  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.running) continue;
      const next = this.waiting.shift();
      if (!next) return;
      slot.running = next;
      slot.timer = setTimeout(() => this.timeOut(slot), this.timeoutMs);
      // A body with an ArrayBuffer of its own is handed over rather than copied (the caller reads it no
      // more); one that shares a buffer (Node's pool for small Buffers) is copied.
      const { body } = next.job;
      const ownsBuffer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const transfer = ownsBuffer && body.buffer instanceof ArrayBuffer ? [body.buffer] : [];
      slot.worker.postMessage({ id: next.id, job: next.job }, transfer);
    }
  }

  private spawn(): Slot {
    const worker = startWorker(siblingModule(import.meta.url, 'parse-worker'));
    worker.unref();
    const slot: Slot = { worker, running: undefined, timer: undefined };
    worker.on('message', (message: { id: number; document?: PreparedDocument; error?: string }) => {
      if (slot.running?.id !== message.id) return;
      const error = message.document
        ? undefined
        : new Error(`poll: preparing the document failed: ${message.error}`);
      this.settle(slot, error, message.document);
      this.dispatch();
    });
    worker.on('exit', () => this.replace(slot, new Error('poll: a parse worker stopped')));
    return slot;
  }

  private timeOut(slot: Slot): void {
    this.replace(slot, new ParseTimeoutError(this.timeoutMs));
    void slot.worker.terminate();
  }

  // A worker that crashed, ran out of memory or took too long fails its job; a new one takes its place.
  private replace(slot: Slot, error: Error): void {
    this.settle(slot, error);
    const index = this.slots.indexOf(slot);
    if (this.closed || index < 0) return;
    slot.worker.removeAllListeners('exit');
    this.slots[index] = this.spawn();
    this.dispatch();
  }

  private settle(slot: Slot, error?: Error, document?: PreparedDocument): void {
    const job = slot.running;
    clearTimeout(slot.timer);
    slot.running = undefined;
    slot.timer = undefined;
    if (!job) return;
    if (document) job.resolve(document);
    else job.reject(error ?? new Error('poll: no document'));
  }
}

/** A pool of `size` workers, or the in-process preparer when `size` is 0. */
export function createPreparer(size = defaultParseWorkers(), timeoutMs = DEFAULT_PARSE_TIMEOUT_MS): Preparer {
  return size > 0 ? new ParsePool(size, timeoutMs) : inProcessPreparer;
}
