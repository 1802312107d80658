import { plural } from './plural.js';

/** Where progress goes: stderr, and whether it is a terminal. */
export interface ProgressOutput {
  write(text: string): void;
  isTTY: boolean;
}

export interface ProgressPrinter {
  /** One more feed done of `total`. */
  update(done: number, total: number): void;
  /** Ends the progress display (the terminal's line is finished, so that what follows starts afresh). */
  finish(): void;
}

// A terminal gets one line rewritten at most 5 times a second. A log (stderr to a file or a pipe) gets
// plain lines, at every tenth of the total or every 10 s, whichever comes first: a `\r` there made one
// endless line, and a line per feed would be thousands.
const TTY_EVERY_MS = 200;
const LOG_EVERY_MS = 10_000;

/** Prints `poll: 17 of 202 feeds` on a terminal (rewritten in place) or as plain lines in a log. */
export function progressPrinter(out: ProgressOutput, now: () => number = Date.now): ProgressPrinter {
  // a terminal shows the first update at once; a log's first line waits for a tenth or 10 s
  let lastAt = out.isTTY ? Number.NEGATIVE_INFINITY : now();
  let lastTenth = 0;
  let pending = false;
  const line = (done: number, total: number) => `poll: ${done} of ${plural(total, 'feed')}`;
  return {
    update(done, total) {
      const at = now();
      if (out.isTTY) {
        if (at - lastAt < TTY_EVERY_MS && done < total) return;
        lastAt = at;
        out.write(`\r${line(done, total)}`);
        pending = true;
        return;
      }
      const tenth = total > 0 ? Math.floor((done * 10) / total) : 0;
      if (tenth === lastTenth && at - lastAt < LOG_EVERY_MS) return;
      lastTenth = tenth;
      lastAt = at;
      out.write(`${line(done, total)}\n`);
    },
    finish() {
      if (pending) out.write('\n');
      pending = false;
    },
  };
}
