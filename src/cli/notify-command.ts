import type { Command } from 'commander';
import type { AddOptions, CommonOptions } from './notify.js';
import { USER_FLAGS, USER_HELP } from './user-option.js';

const DATABASE_HELP = 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)';
// The store's DESTINATION_KINDS and EVENT_TYPES, written out so that the help loads no store (the CLI
// starts in a tenth of the time); test/cli-start.test.ts checks that they are the same.
export const DESTINATION_KINDS_HELP = ['webhook', 'email', 'ntfy'];
export const EVENT_TYPES_HELP = [
  'feed.failing',
  'feed.recovered',
  'feed.silent',
  'feed.gone',
  'feed.moved',
  'entry.matched',
];

/**
 * `tidings notify add|list|remove|test`: where a user's alerts go (issue 25). A webhook gets the event's
 * JSON, signed with its secret (X-Tidings-Signature); ntfy and email get it in words.
 */
export function registerNotify(program: Command): void {
  const notify = program
    .command('notify')
    .description('where alerts go: webhooks (signed JSON), email (SMTP) and ntfy topics');
  notify
    .command('add')
    .description(
      'add a destination: `webhook URL`, `email ADDRESS` or `ntfy TOPIC_URL`; a webhook without --secret gets one, shown once',
    )
    .argument('<kind>', DESTINATION_KINDS_HELP.join(', '))
    .argument('<target>', 'the URL, or the email address')
    .option(
      '--secret <secret>',
      'webhook: the HMAC-SHA256 key of X-Tidings-Signature (default: a new random one)',
    )
    .option(
      '--events <list>',
      `only these events, comma-separated (default: all): ${EVENT_TYPES_HELP.join(', ')}`,
    )
    .option('--digest <period>', 'email: also a daily digest of what is still broken (daily)')
    .option(USER_FLAGS, 'whose destination (may be left out while there is one user)')
    .option('--database <url>', DATABASE_HELP)
    .action(async (kind: string, target: string, opts: AddOptions) =>
      (await import('./notify.js')).runNotifyAdd(kind, target, opts),
    );
  notify
    .command('list')
    .description('list the destinations, whether they work, and what waits to be sent')
    .option('--json', 'print JSON: {"destinations": [...]}')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: CommonOptions & { json?: boolean }) =>
      (await import('./notify.js')).runNotifyList(opts),
    );
  notify
    .command('remove')
    .description('remove a destination and the messages it still had to send')
    .argument('<id>', 'destination id (from notify list)')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (id: string, opts: CommonOptions) =>
      (await import('./notify.js')).runNotifyRemove(id, opts),
    );
  notify
    .command('test')
    .description('send a test message to a destination now and print its answer (HTTP status or SMTP reply)')
    .argument('<id>', 'destination id (from notify list)')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (id: string, opts: CommonOptions) => (await import('./notify.js')).runNotifyTest(id, opts));
}
