import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { exportOpmlText, subscribeOpml } from '../web/opml-import.js';
import { type App, withApp } from './app.js';

/** `tidings import FILE.opml` and `tidings export > subs.opml`. */
export function registerOpml(program: Command): void {
  program
    .command('import')
    .description('follow every feed of an OPML file; its folders become channels')
    .argument('<file>', 'OPML file')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (file: string, opts: { database?: string }) => {
      const text = await readFile(file, 'utf8');
      process.exitCode = await withApp({ database: opts.database }, (app) => importOpml(app, text));
    });
  program
    .command('export')
    .description('print the subscriptions as OPML 2.0, one outline folder per channel')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { database?: string }) => {
      const text = await withApp({ database: opts.database }, exportOpml);
      process.stdout.write(text);
    });
}

/** Imports an OPML document: returns the exit code (0 even when some outlines were skipped). */
export async function importOpml(
  app: App,
  text: string,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const { readOpml } = await import('../opml/read.js');
  const doc = readOpml(text);
  for (const warning of doc.warnings) process.stderr.write(`${warning}\n`);
  const result = await subscribeOpml(app.store, doc, new Date().toISOString(), onProgress);
  process.stdout.write(
    `imported ${result.total} feeds (${result.added} new); run tidings poll --once to fetch them\n`,
  );
  return doc.feeds.length === 0 && doc.warnings.length > 0 ? 1 : 0;
}

/** The subscriptions as OPML 2.0. */
export function exportOpml(app: App): Promise<string> {
  return exportOpmlText(app.store, new Date().toISOString());
}
