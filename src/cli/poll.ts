import { redactSecrets } from '../log.js';
import { type PollSummary, pollOnce, runPollLoop } from '../poll/index.js';
import { type PollingApp, withApp } from './app.js';
import { plural } from './plural.js';
import { parseFeedIds, requireFeeds, whyNotPolled } from './poll-feeds.js';
import { progressPrinter } from './progress.js';
import { retentionPolicy, startRetention } from './retention.js';
import { DRAIN_MS, openSender, runSender } from './sender.js';
import { EXIT_USAGE, UserError } from './user-error.js';

export interface PollOptions {
  once?: boolean;
  force?: boolean;
  feed?: string[];
  database?: string;
  verbose?: boolean;
}

/** `tidings poll` (poll-command.ts defines it): one run with --once, else the poller until a signal. */
export async function runPoll(opts: PollOptions): Promise<void> {
  // --feed and --force choose what one run polls: without --once they were ignored silently
  if (!opts.once && (opts.feed || opts.force))
    throw new UserError(`poll: ${opts.feed ? '--feed' : '--force'} needs --once`, {
      exitCode: EXIT_USAGE,
    });
  if (!opts.once) return runWorker(opts.database);
  const feedIds = opts.feed ? parseFeedIds(opts.feed) : undefined;
  process.exitCode = await withApp(
    { database: opts.database, poller: true, polls: true, events: true },
    (app) => runOnce(app, opts, feedIds),
  );
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

/** Stops on SIGINT and SIGTERM, as `worker` does; `stoppedBy` names the signal once one came. */
function stopOnSignals(): { signal: AbortSignal; stoppedBy(): string | undefined; dispose(): void } {
  const stop = new AbortController();
  let received: string | undefined;
  const handlers = Object.keys(SIGNAL_NUMBERS).map((name) => {
    const handler = () => {
      received ??= name;
      stop.abort();
    };
    process.once(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: stop.signal,
    stoppedBy: () => received,
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}

/** One run: progress on stderr, the summary on stdout; returns the exit code. */
async function runOnce(app: PollingApp, opts: PollOptions, feedIds: number[] | undefined): Promise<number> {
  const requested = feedIds ? await requireFeeds(app.store, feedIds) : [];
  const force = opts.force === true;
  const runStartedAt = app.poll.now().toISOString();
  const progress = progressPrinter({
    isTTY: process.stderr.isTTY === true,
    write: (t) => process.stderr.write(t),
  });
  const stop = stopOnSignals();
  let summary: PollSummary;
  try {
    summary = await pollOnce(app.poll, {
      ...(force ? { force } : {}),
      ...(feedIds ? { feedIds } : {}),
      signal: stop.signal,
      onProgress: (event) => {
        if (opts.verbose)
          process.stderr.write(
            `poll: ${event.status.padEnd(14)} ${event.feed.id} ${redactSecrets(event.feed.url)}${event.newCount ? ` (+${event.newCount})` : ''}\n`,
          );
        else progress.update(event.done, event.total);
      },
    });
  } finally {
    stop.dispose();
    progress.finish();
  }
  process.stdout.write(formatSummary(summary));
  const signal = stop.stoppedBy();
  if (signal !== undefined) {
    process.stderr.write(`tidings: poll: stopped by ${signal}; the feeds not polled were given back\n`);
    return 128 + (SIGNAL_NUMBERS[signal] ?? 0);
  }
  await sendAlerts(app);
  let unpolled = 0;
  for (const before of requested) {
    const reason = whyNotPolled(before, await app.store.feeds.get(before.id), runStartedAt, force);
    if (reason === undefined) continue;
    unpolled++;
    process.stderr.write(`tidings: poll: ${reason}\n`);
  }
  return unpolled > 0 ? 1 : 0;
}

/**
 * Sends the alerts the run caused (and any others due) before the process exits; a note on stderr. The
 * polls are stored whatever happens here: alerts that cannot go now stay queued for the next process.
 */
async function sendAlerts(app: PollingApp): Promise<void> {
  const sender = openSender(app);
  try {
    const { sent, failed } = await sender.drain(DRAIN_MS);
    if (sent + failed > 0)
      process.stderr.write(
        `poll: ${plural(sent, 'alert')} sent${failed > 0 ? `, ${failed} not sent yet (tried again by the next poll)` : ''}\n`,
      );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`poll: the alerts could not be sent now; they stay queued: ${message}\n`);
  } finally {
    sender.close();
  }
}

/** `tidings worker` (poll-command.ts defines it), and `tidings poll` without --once. */
export async function runWorker(database: string | undefined): Promise<void> {
  retentionPolicy(process.env, new Date()); // a bad retention setting: one line before anything starts
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  await withApp(
    { database, poller: true, logs: true, polls: true, events: true, push: true },
    async (app) => {
      // workers remove old read entries too, so that a `serve --no-poller` deployment keeps its size
      startRetention(app.store, process.env, app.log, stop.signal);
      // whichever process polls sends the alerts its polls cause (issue 25)
      const sending = runSender(app, stop.signal);
      await runPollLoop(app.poll, stop.signal);
      await sending;
    },
  );
}

/** The closing summary: feeds per status, entries new and updated, time. */
export function formatSummary(summary: PollSummary): string {
  const statuses = Object.entries(summary.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `  ${status.padEnd(15)} ${n}`);
  return [
    `polled ${plural(summary.feeds, 'feed')} in ${(summary.durationMs / 1000).toFixed(1)} s: ${plural(summary.newEntries, 'new entry', 'new entries')}, ${summary.updatedEntries} updated`,
    ...statuses,
    '',
  ].join('\n');
}
