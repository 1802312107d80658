import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { exportOpml, importOpml, type OpmlImport } from '../subscriptions/index.js';
import { type App, withApp } from './app.js';
import { plural } from './plural.js';
import { subscriptionDeps } from './subscribe.js';
import { UserError } from './user-error.js';
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
    .action(async (file: string, opts: { database?: string; user?: string; fetch: boolean }) => {
      const text = await readFile(file, 'utf8');
      process.exitCode = await withApp(
        { database: opts.database, polls: opts.fetch, user: { name: opts.user, command: 'import' } },
        (app) => importFile(app, file, text, opts.fetch),
      );
    });
  program
    .command('export')
    .description('print the subscriptions as OPML 2.0, one outline folder per channel (nested for "A / B")')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { database?: string; user?: string }) => {
      const text = await withApp(
        { database: opts.database, user: { name: opts.user, command: 'export' } },
        (app) => exportOpml(subscriptionDeps(app)),
      );
      process.stdout.write(text);
    });
}

/** What an import did in numbers that add up: followed + already followed + failed = the file's feeds. */
export function importSummary(result: OpmlImport): string {
  return `followed ${result.followed} of ${plural(result.total, 'feed')} (${result.added} new); not followed: ${result.alreadyFollowed} already followed, ${result.failed} failed`;
}

/**
 * Imports an OPML document: each outline not followed on stderr (line and reason), a summary on stdout.
 * With `fetchNow` (the default) the new feeds are fetched at once, as the web import does, so that an
 * outline that is a web page is resolved to its feed, or reported and unfollowed when it links to none.
 * Exit 0 when the file could be read (some outlines skipped or not), 1 when it held no feed at all.
 */
async function importFile(app: App, file: string, text: string, fetchNow: boolean): Promise<number> {
  const result = await importOpml(subscriptionDeps(app), text, { fetchNow });
  if (result.total === 0) {
    const why =
      result.warnings.length > 0 ? `: ${result.warnings.join('; ')}` : ' (no outline with an xmlUrl)';
    throw new UserError(`import: ${file} lists no feed${why}`);
  }
  for (const warning of result.warnings) process.stderr.write(`import: ${warning}\n`);
  for (const s of result.skipped)
    process.stderr.write(`import: line ${s.line}: ${s.url.slice(0, 200)}: ${s.reason}\n`);
  process.stdout.write(
    `${importSummary(result)}; ${fetchNow ? 'fetched' : 'run tidings poll --once to fetch them'}\n`,
  );
  return 0;
}
