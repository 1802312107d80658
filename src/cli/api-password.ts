import type { Command } from 'commander';
import { checkApiCredentials, setApiPassword } from '../auth/index.js';
import { withApp } from './app.js';
import { askTwice, passwordFromInput, readStdin } from './password.js';
import { UserError } from './user-error.js';

/** `tidings api-password --user NAME`: sets the account of the Google Reader and Fever APIs. */
export function registerApiPassword(program: Command): void {
  program
    .command('api-password')
    .description(
      'set the user and password that apps use with the Google Reader and Fever APIs (password from stdin when it is not a terminal, else asked twice)',
    )
    .requiredOption('--user <name>', 'the user name to type into the app')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { user: string; database?: string }) => {
      const password = process.stdin.isTTY ? await askTwice() : passwordFromInput(await readStdin());
      const problem =
        password === undefined ? 'the two passwords differ' : checkApiCredentials(opts.user, password);
      if (problem || password === undefined) throw new UserError(`api-password: ${problem}; nothing changed`);
      await withApp({ database: opts.database }, (app) => setApiPassword(app.store, opts.user, password));
      process.stdout.write(
        `API password set for ${opts.user}; apps signed in before must sign in again\n` +
          'Google Reader API: https://YOUR-HOST/api/greader  Fever API: https://YOUR-HOST/api/fever\n',
      );
    });
}
