import type { Command } from 'commander';
import { pollOnce } from '../poll/poller.js';
import { channelNamed } from '../store/channel-choice.js';
import { type App, withApp } from './app.js';

/** `tidings add URL [--channel NAME]` and `tidings remove URL|ID`. */
export function registerSubscribe(program: Command): void {
  program
    .command('add')
    .description('follow a feed (a web page is resolved to its feed by autodiscovery) and fetch it at once')
    .argument('<url>', 'feed or web page URL')
    .option('--channel <name>', 'the channel to put it in (created if needed)')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (url: string, opts: { channel?: string; database?: string }) => {
      process.exitCode = await withApp({ database: opts.database }, (app) => addFeed(app, url, opts.channel));
    });
  program
    .command('remove')
    .description('stop following a feed and delete its entries')
    .argument('<feed>', 'feed URL or id')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (feed: string, opts: { database?: string }) => {
      process.exitCode = await withApp({ database: opts.database }, async (app) => {
        const found = await findFeed(app, feed);
        if (!found) {
          process.stderr.write(`remove: no feed ${feed}\n`);
          return 1;
        }
        await app.store.removeFeed(found.id);
        process.stdout.write(`removed feed ${found.id} ${found.url}\n`);
        return 0;
      });
    });
}

/** Resolves, subscribes and polls one URL; returns the exit code. */
async function addFeed(app: App, url: string, channelName: string | undefined): Promise<number> {
  // loaded here: autodiscovery brings the parser, which other commands start without
  const { discover } = await import('../poll/discover.js');
  const found = await discover(app.poll, url);
  if (found.kind === 'error') {
    process.stderr.write(`${found.message}\n`);
    return 1;
  }
  let feedUrl = found.url;
  if (found.kind === 'page') {
    feedUrl = (found.feeds[0] as { url: string }).url;
    process.stderr.write(`add: ${url} is a web page; following its feed ${feedUrl}\n`);
    for (const other of found.feeds.slice(1)) process.stderr.write(`add: (it also links to ${other.url})\n`);
  }
  const now = new Date().toISOString();
  const feed = await app.store.addFeed(feedUrl, now);
  const channel = await channelNamed(app.store, channelName);
  await app.store.subscribe(channel.id, feed.id, now);
  const summary = await pollOnce(app.poll, { feedIds: [feed.id], force: true });
  const polled = await app.store.getFeed(feed.id);
  process.stdout.write(
    `added feed ${feed.id} ${feedUrl} to ${channel.name}: ${polled?.status ?? 'not polled'}, ${summary.newEntries} entries\n`,
  );
  if (polled?.message && polled.status !== 'ok') process.stdout.write(`  ${polled.message}\n`);
  return 0;
}

/** A feed by id or URL (as subscribed or as moved). */
export async function findFeed(app: App, ref: string) {
  if (/^\d+$/.test(ref)) return app.store.getFeed(Number(ref));
  return app.store.findFeedByUrl(ref);
}
