import type { Command } from 'commander';
import { EXIT_USAGE, UserError } from './user-error.js';

const DATABASE_HELP = 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)';

/**
 * `tidings user add|list|remove|rename|set`: the people on this instance. Registration is closed: an
 * admin (whoever runs the CLI on the server) creates accounts.
 */
export function registerUser(program: Command): void {
  const user = program.command('user').description('add, list, remove, rename and change the users');
  user
    .command('add')
    .description(
      'add a user (password from stdin when it is not a terminal, else asked twice); the first user is an admin',
    )
    .argument('<name>', '1 to 64 letters, digits, dots, dashes or underscores')
    .option('--admin', 'the user may manage users and every feed')
    .option('--me <url>', 'their IndieAuth profile URL (Microsub sign-in)')
    .option('--database <url>', DATABASE_HELP)
    .action(async (name: string, opts: { admin?: boolean; me?: string; database?: string }) =>
      (await import('./user.js')).runUserAdd(name, opts),
    );
  user
    .command('list')
    .description('list the users')
    .option('--json', 'print JSON: {"users":[{"name":"ann","admin":true,"subscriptions":12}]}')
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: { json?: boolean; database?: string }) =>
      (await import('./user.js')).runUserList(opts),
    );
  user
    .command('remove')
    .description(
      'remove a user with their channels, subscriptions, read and saved state, tokens and app password',
    )
    .argument('<name>', 'the user')
    .option('--yes', 'really remove them (nothing is removed without it)')
    .option('--database <url>', DATABASE_HELP)
    .action(async (name: string, opts: { yes?: boolean; database?: string }) =>
      (await import('./user.js')).runUserRemove(name, opts),
    );
  user
    .command('rename')
    .description('rename a user (apps keep the name their app password was set with)')
    .argument('<old>', 'the user')
    .argument('<new>', 'the new name')
    .option('--database <url>', DATABASE_HELP)
    .action(async (oldName: string, newName: string, opts: { database?: string }) =>
      (await import('./user.js')).runUserRename(oldName, newName, opts),
    );
  // commander keeps the last of --admin and --no-admin: both given is a command line that says nothing
  const given = new Set<string>();
  user
    .command('set')
    .on('option:admin', () => given.add('admin'))
    .on('option:no-admin', () => given.add('no-admin'))
    .description("change a user's admin flag or IndieAuth profile URL")
    .argument('<name>', 'the user')
    .option('--admin', 'make them an admin')
    .option('--no-admin', 'make them no admin')
    .option('--me <url>', 'their IndieAuth profile URL; "" clears it')
    .option('--database <url>', DATABASE_HELP)
    .action(async (name: string, opts: { admin?: boolean; me?: string; database?: string }) => {
      if (given.has('admin') && given.has('no-admin'))
        throw new UserError('user set: --admin and --no-admin contradict each other', {
          exitCode: EXIT_USAGE,
        });
      await (await import('./user.js')).runUserSet(name, opts);
    });
}
