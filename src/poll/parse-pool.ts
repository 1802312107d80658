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

/** Prepares in this thread (tests, one-core machines); the parser is loaded on the first document. */
export const inProcessPreparer: Preparer = {
  prepare: async (job) => (await import('./prepare.js')).prepareDocument(job),
  close: async () => {},
};

/** The number of parse workers by default: one core for them, one for fetching and the database. */
export function defaultParseWorkers(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, 4));
}

interface Slot {
  worker: Worker;
  busy: number;
}

interface Pending {
  slot: Slot;
  resolve: (document: PreparedDocument) => void;
  reject: (error: Error) => void;
}

/**
 * A pool of worker threads that parse and prepare documents: jobs go to the least busy worker. A worker
 * that dies fails only its own jobs and is replaced. The threads start with the first document (or
 * `warmUp`): commands that never parse do not pay for them.
 */
export class ParsePool implements Preparer {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {}

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
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    slot.busy++;
    return new Promise<PreparedDocument>((resolve, reject) => {
      this.pending.set(id, { slot, resolve, reject });
      // A body with an ArrayBuffer of its own is handed over rather than copied (the caller reads it no
      // more); one that shares a buffer (Node's pool for small Buffers) is copied.
      const { body } = job;
      const ownsBuffer = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const transfer = ownsBuffer && body.buffer instanceof ArrayBuffer ? [body.buffer] : [];
      slot.worker.postMessage({ id, job }, transfer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map(({ worker }) => worker.terminate()));
    for (const [id, pending] of this.pending)
      this.finish(id, pending, new Error('poll: the parse pool was closed'));
  }

  private spawn(): Slot {
    const worker = startWorker(siblingModule(import.meta.url, 'parse-worker'));
    worker.unref();
    const slot: Slot = { worker, busy: 0 };
    worker.on('message', (message: { id: number; document?: PreparedDocument; error?: string }) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      const error = message.document
        ? undefined
        : new Error(`poll: preparing the document failed: ${message.error}`);
      this.finish(message.id, pending, error, message.document);
    });
    worker.on('exit', () => this.replace(slot));
    return slot;
  }

  // A worker that crashed (or ran out of memory) fails its own jobs; a new one takes its place.
  private replace(slot: Slot): void {
    for (const [id, pending] of this.pending) {
      if (pending.slot === slot) this.finish(id, pending, new Error('poll: a parse worker stopped'));
    }
    const index = this.slots.indexOf(slot);
    if (!this.closed && index >= 0) this.slots[index] = this.spawn();
  }

  private finish(id: number, pending: Pending, error?: Error, document?: PreparedDocument): void {
    this.pending.delete(id);
    pending.slot.busy--;
    if (document) pending.resolve(document);
    else pending.reject(error ?? new Error('poll: no document'));
  }
}

/** A pool of `size` workers, or the in-process preparer when `size` is 0. */
export function createPreparer(size = defaultParseWorkers()): Preparer {
  return size > 0 ? new ParsePool(size) : inProcessPreparer;
}
