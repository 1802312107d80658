import type { Command } from 'commander';

/**
 * `tidings api-password --user NAME`: sets a user's app password for the Google Reader and Fever APIs.
 * NAME is the user (the name typed into the app). On a new instance it creates the first user, an admin;
 * while there is one user, a NAME that is not theirs becomes the name their apps sign in with (as before
 * accounts, when the app account had a name of its own). Without --user: the one user of the instance
 * (the first, `admin`, on a new one); with several, one line asks for it (exit 2).
 */
export function registerApiPassword(program: Command): void {
  program
    .command('api-password')
    .description(
      'set the password that apps use with the Google Reader and Fever APIs, for the user NAME (password from stdin when it is not a terminal, else asked twice)',
    )
    .option('--user <name>', 'the user, as typed into the app (may be left out while there is one user)')
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { user?: string; database?: string }) =>
      (await import('./api-password.js')).runApiPassword(opts),
    );
}
