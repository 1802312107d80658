import type { Command } from 'commander';
import type { ImportOptions } from './opml.js';
import { USER_FLAGS, USER_HELP } from './user-option.js';

/** `tidings import FILE.opml` and `tidings export > subs.opml`. */
export function registerOpml(program: Command): void {
  program
    .command('import')
    .description(
      'follow every feed of an OPML file; its folders become channels ("Parent / Child" when nested), unfiled feeds go to the default channel',
    )
    .argument('<file>', 'OPML file')
    .option(
      '--no-fetch',
      'do not fetch the new feeds now (the next poll does; web pages among them are resolved then)',
    )
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (file: string, opts: ImportOptions) => (await import('./opml.js')).runImport(file, opts));
  program
    .command('export')
    .description('print the subscriptions as OPML 2.0, one outline folder per channel (nested for "A / B")')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { database?: string; user?: string }) =>
      (await import('./opml.js')).runExport(opts),
    );
}
