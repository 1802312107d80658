import type { Command } from 'commander';
import type { FeedOptions } from './feed.js';
import { USER_FLAGS, USER_HELP } from './user-option.js';

/** `tidings feed ID|URL [--title T] [--url URL] [--interval 15m] [--user-agent UA] [--pause|--resume] [--move-to NAME]` */
export function registerFeed(program: Command): void {
  program
    .command('feed')
    .description("show a feed's settings, or change them")
    .argument('<feed>', 'feed id, feed URL, the URL first followed, or its site URL')
    .option('--title <title>', 'the title to show (polls keep it); "" gives the feed its own title back')
    .option('--url <url>', 'where the feed lives now (fetched from there at the next poll)')
    .option(
      '--interval <interval>',
      'poll interval such as 15m, 2h, 1d (1 minute to 7 days); "default" resets it',
    )
    .option('--user-agent <ua>', 'the User-Agent to send for this feed; "" resets it')
    .option('--pause', 'stop polling it (it stays followed)')
    .option('--resume', 'poll it again')
    .option(
      '--move-to <channel>',
      'move it to this channel (created if needed) from every channel that follows it',
    )
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (ref: string, opts: FeedOptions) => (await import('./feed.js')).runFeed(ref, opts));
}
