import { randomBytes } from 'node:crypto';

/** The entries one "mark all read" changed, per channel: exactly what its Undo marks unread again. */
export interface UndoRecord {
  changes: { channelId: number; entryIds: number[] }[];
  count: number;
  atMs: number;
}

const MAX_RECORDS = 100;
const KEEP_MS = 30 * 60 * 1000;

/**
 * Recent mark-all-read actions by a random token, in memory (one owner, one server process): the page
 * after the action offers "N entries marked read - Undo" with the token. The oldest are forgotten first.
 * Each front end that offers an undo keeps one (the web UI: one per app).
 */
export class UndoLog {
  readonly #records = new Map<string, UndoRecord>();

  /** Keeps a record; returns its token. */
  add(changes: UndoRecord['changes'], nowMs: number): string {
    const token = randomBytes(12).toString('base64url');
    const count = changes.reduce((sum, change) => sum + change.entryIds.length, 0);
    this.#records.set(token, { changes, count, atMs: nowMs });
    for (const [old, record] of this.#records)
      if (this.#records.size > MAX_RECORDS || nowMs - record.atMs > KEEP_MS) this.#records.delete(old);
    return token;
  }

  /** The record of a token still kept. */
  get(token: string, nowMs: number): UndoRecord | undefined {
    const record = this.#records.get(token);
    return record && nowMs - record.atMs <= KEEP_MS ? record : undefined;
  }

  /** Takes a record out (an undo happens once). */
  take(token: string, nowMs: number): UndoRecord | undefined {
    const record = this.get(token, nowMs);
    this.#records.delete(token);
    return record;
  }
}
