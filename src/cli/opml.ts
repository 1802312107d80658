import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { readOpml } from '../opml/read.js';
import { type OpmlChannel, writeOpml } from '../opml/write.js';
import { type App, defaultChannel, withApp } from './app.js';

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
  const doc = readOpml(text);
  for (const warning of doc.warnings) process.stderr.write(`${warning}\n`);
  const now = new Date().toISOString();
  let added = 0;
  for (const [i, item] of doc.feeds.entries()) {
    const channel = await defaultChannel(app.store, item.channel);
    const known = await app.store.findFeedByUrl(item.xmlUrl);
    const feed = known ?? (await app.store.addFeed(item.xmlUrl, now));
    if (!known) {
      added++;
      if (item.title) await app.store.updateFeed(feed.id, { title: item.title });
    }
    await app.store.subscribe(channel.id, feed.id, now);
    onProgress?.(i + 1, doc.feeds.length);
  }
  process.stdout.write(
    `imported ${doc.feeds.length} feeds (${added} new); run tidings poll --once to fetch them\n`,
  );
  return doc.feeds.length === 0 && doc.warnings.length > 0 ? 1 : 0;
}

/** The subscriptions as OPML 2.0. */
export async function exportOpml(app: App): Promise<string> {
  const channels: OpmlChannel[] = [];
  for (const channel of await app.store.listChannels()) {
    const subscriptions = await app.store.listSubscriptions(channel.id);
    if (subscriptions.length === 0) continue;
    channels.push({
      name: channel.name,
      feeds: subscriptions.map(({ feed }) => ({
        xmlUrl: feed.url,
        ...(feed.title ? { title: feed.title } : {}),
        ...(feed.siteUrl ? { htmlUrl: feed.siteUrl } : {}),
      })),
    });
  }
  return writeOpml(channels, { title: 'tidings subscriptions', now: new Date().toISOString() });
}
