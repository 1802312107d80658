import type { Command } from 'commander';
import type { StatusOptions } from './status.js';

/** `tidings status [FEED] [--json]`: every feed's health, or one feed's history and diagnostics. */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the health of every feed, or the history and diagnostics of one')
    .argument('[feed]', 'feed URL or id')
    .option('--json', 'print JSON: {"feeds": [...]}')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (feed: string | undefined, opts: StatusOptions) =>
      (await import('./status.js')).runStatus(feed, opts),
    );
}
