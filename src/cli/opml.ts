import { readFile } from 'node:fs/promises';
import { exportOpml, importOpml, type OpmlImport } from '../subscriptions/index.js';
import { type PollingApp, withApp } from './app.js';
import { plural } from './plural.js';
import { subscriptionDeps } from './subscribe.js';
import { UserError } from './user-error.js';

export interface ImportOptions {
  database?: string;
  user?: string;
  fetch: boolean;
}

/** `tidings import FILE.opml` (opml-command.ts defines it). */
export async function runImport(file: string, opts: ImportOptions): Promise<void> {
  // a folder given for the file: Node's EISDIR names no path, so the line would not say which
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.path === undefined) error.path = file;
    throw error;
  });
  process.exitCode = await withApp(
    {
      database: opts.database,
      poller: true,
      polls: opts.fetch,
      user: { name: opts.user, command: 'import' },
    },
    (app) => importFile(app, file, text, opts.fetch),
  );
}

/** `tidings export` (opml-command.ts defines it): the subscriptions as OPML on stdout. */
export async function runExport(opts: { database?: string; user?: string }): Promise<void> {
  const text = await withApp(
    { database: opts.database, poller: true, user: { name: opts.user, command: 'export' } },
    (app) => exportOpml(subscriptionDeps(app)),
  );
  process.stdout.write(text);
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
async function importFile(app: PollingApp, file: string, text: string, fetchNow: boolean): Promise<number> {
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
