import type { Command } from 'commander';
import type { PollOptions } from './poll.js';

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
    .action(async (opts: PollOptions) => (await import('./poll.js')).runPoll(opts));
  program
    .command('worker')
    .description('run only the poller (any number of workers can share one PostgreSQL database)')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { database?: string }) => (await import('./poll.js')).runWorker(opts.database));
}
