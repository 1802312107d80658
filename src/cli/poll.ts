import type { Command } from 'commander';
import type { HeartbeatStatus } from '../model/heartbeat.js';
import { runPollLoop } from '../poll/loop.js';
import { type PollSummary, pollOnce } from '../poll/poller.js';
import { withApp } from './app.js';

interface PollOptions {
  once?: boolean;
  force?: boolean;
  feed?: string[];
  database?: string;
  verbose?: boolean;
}

/** `tidings poll [--once] [--force] [--feed ID]` and `tidings worker`. */
export function registerPoll(program: Command): void {
  program
    .command('poll')
    .description('poll the feeds that are due (with --once: one run, then exit 0 however many feeds failed)')
    .option('--once', 'poll every due feed once and exit')
    .option(
      '--force',
      'poll every feed now, not only those due (Retry-After, 410 and paused feeds still wait)',
    )
    .option('--feed <id...>', 'only these feeds (ids as `tidings status` shows them)')
    .option('--verbose', 'one line per feed on stderr')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: PollOptions) => {
      if (!opts.once) return runWorker(opts.database);
      const summary = await withApp({ database: opts.database, polls: true }, (app) =>
        pollOnce(app.poll, { ...runOptions(opts), onProgress: progressPrinter(opts.verbose === true) }),
      );
      process.stderr.write('\n');
      process.stdout.write(formatSummary(summary));
    });
  program
    .command('worker')
    .description('run only the poller (any number of workers can share one PostgreSQL database)')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action((opts: { database?: string }) => runWorker(opts.database));
}

function runOptions(opts: PollOptions): { force?: boolean; feedIds?: number[] } {
  const out: { force?: boolean; feedIds?: number[] } = {};
  if (opts.force) out.force = true;
  if (opts.feed) out.feedIds = opts.feed.map(Number).filter(Number.isInteger);
  return out;
}

async function runWorker(database: string | undefined): Promise<void> {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  await withApp({ database, logs: true, polls: true }, (app) => runPollLoop(app.poll, stop.signal));
}

// Progress goes to stderr: a line per feed with --verbose, else a counter rewritten at most 5 times a second.
function progressPrinter(
  verbose: boolean,
): (event: {
  feed: { id: number; url: string };
  status: HeartbeatStatus;
  done: number;
  newCount: number;
}) => void {
  let last = 0;
  return (event) => {
    if (verbose) {
      process.stderr.write(
        `poll: ${event.status.padEnd(14)} ${event.feed.id} ${event.feed.url}${event.newCount ? ` (+${event.newCount})` : ''}\n`,
      );
      return;
    }
    const now = Date.now();
    if (now - last < 200) return;
    last = now;
    process.stderr.write(`\rpoll: ${event.done} feeds polled`);
  };
}

/** The closing summary: feeds per status, entries new and updated, time. */
export function formatSummary(summary: PollSummary): string {
  const statuses = Object.entries(summary.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `  ${status.padEnd(15)} ${n}`);
  return [
    `polled ${summary.feeds} feeds in ${(summary.durationMs / 1000).toFixed(1)} s: ${summary.newEntries} new entries, ${summary.updatedEntries} updated`,
    ...statuses,
    '',
  ].join('\n');
}
