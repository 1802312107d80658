import type { Command } from 'commander';
import { USER_FLAGS } from './user-option.js';

/**
 * `tidings password [--user NAME]`: sets a user's password for the web interface. On a new instance it
 * creates the first user, an admin (NAME, or `admin`).
 */
export function registerPassword(program: Command): void {
  program
    .command('password')
    .description(
      'set the password of the web interface (read from stdin when it is not a terminal, else asked twice); on a new instance it creates the first user, an admin',
    )
    .option(USER_FLAGS, "whose password (on a new instance: the first user's name, default admin)")
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { user?: string; database?: string }) =>
      (await import('./password.js')).runPassword(opts),
    );
}
