import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { type PollRows, type PollWritten, writePoll, writePolls } from './poll-writes.js';

/** How long the first poll of a batch waits for others to join it, when polls come one at a time. */
const GATHER_MS = 10;
/**
 * The same while polls come together (the last batch held more than one). A first poll round of 1,000
 * feeds (bench:poll) stores about 170 polls a second: with 10 ms its batches held 3 polls, with 100 ms
 * 17, and the round took a tenth less CPU (fewer commits, fewer WAL frames and full-text segments to
 * merge). A lone poll (a follow, a refresh) still waits only GATHER_MS.
 */
const BUSY_GATHER_MS = 100;
/** Enough to make commits rare; few enough that one transaction holds the write lock briefly. */
const MAX_BATCH = 32;

interface Pending {
  rows: PollRows;
  resolve: (written: PollWritten) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of polls (SQLite, and PostgreSQL since issue 22). A commit costs about a millisecond of
 * SQLite's main thread (WAL frames, the full-text index's new segment), and a run of a thousand feeds
 * committed a thousand times (bench:poll); on PostgreSQL every statement of every poll cost more than
 * its rows. Polls that arrive within a few milliseconds of each other are written in one transaction,
 * each step in one statement for all of them (writePolls). Should that transaction fail, it is rolled
 * back and each of its polls is written again in a transaction of its own, so that a poll that cannot
 * be stored fails alone (as with one transaction per poll). A poll is acknowledged only once its
 * transaction has committed.
 */
export class PollWriter {
  #queue: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #lastBatchSize = 0;

  constructor(
    private readonly db: Kysely<Database>,
    /** Called after each batch is written. */
    private readonly afterBatch: () => void = () => {},
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
  ) {}

  write(rows: PollRows): Promise<PollWritten> {
    return new Promise((resolve, reject) => {
      // one poll of a feed per batch: a second one waits for the first's batch
      if (this.#queue.some((pending) => pending.rows.feedId === rows.feedId)) this.#flush();
      this.#queue.push({ rows, resolve, reject });
      if (this.#queue.length >= MAX_BATCH) this.#flush();
      else
        this.#timer ??= setTimeout(() => this.#flush(), this.#lastBatchSize > 1 ? BUSY_GATHER_MS : GATHER_MS);
    });
  }

  /** Resolves once every poll handed over so far is written. */
  async drain(): Promise<void> {
    if (this.#queue.length > 0) this.#flush();
    await this.#writing;
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue.splice(0, this.#queue.length);
    if (batch.length === 0) return;
    this.#lastBatchSize = batch.length;
    // batches are written one after another, in the order their polls arrived
    this.#writing = this.#writing.then(() => this.#writeBatch(batch));
  }

  async #writeBatch(batch: Pending[]): Promise<void> {
    await this.#writeEach(batch);
    this.afterBatch();
  }

  async #writeEach(batch: Pending[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const results = await this.db.transaction().execute((trx) =>
          writePolls(
            trx,
            this.dialect,
            batch.map((pending) => pending.rows),
          ),
        );
        for (const [i, pending] of batch.entries()) pending.resolve(results[i] as PollWritten);
        return;
      } catch {
        // one of them cannot be stored: find which, each on its own
      }
    }
    for (const pending of batch) {
      try {
        pending.resolve(
          await this.db.transaction().execute((trx) => writePoll(trx, this.dialect, pending.rows)),
        );
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
