import type { Command } from 'commander';
import type { AddOptions, RemoveOptions } from './subscribe.js';
import { USER_FLAGS, USER_HELP } from './user-option.js';

const DATABASE_HELP = 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)';
// The store's UNFOLLOWED_KEEP_DAYS, written out so that the help loads no store (the CLI starts in a tenth
// of the time); test/cli-start.test.ts checks that they are the same.
export const UNFOLLOWED_KEEP_DAYS_HELP = 30;

/** `tidings add URL [--channel NAME] [--also]` and `tidings remove URL|ID [--channel NAME]`. */
export function registerSubscribe(program: Command): void {
  program
    .command('add')
    .description('follow a feed (a web page is resolved to its feed by autodiscovery) and fetch it at once')
    .argument('<url>', 'feed or web page URL')
    .option('--channel <name>', 'the channel to put it in (created if needed; default: Home)')
    .option('--also', 'follow it in --channel too when another channel follows it already')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (url: string, opts: AddOptions) => (await import('./subscribe.js')).runAdd(url, opts));
  program
    .command('remove')
    .description(
      `stop following a feed (in every channel, or in --channel); it is no longer polled, and its entries are deleted after ${UNFOLLOWED_KEEP_DAYS_HELP} days`,
    )
    .argument('<feed>', 'feed id, feed URL, the URL first followed, or its site URL')
    .option('--channel <name>', 'only in this channel')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (ref: string, opts: RemoveOptions) =>
      (await import('./subscribe.js')).runRemove(ref, opts),
    );
}
