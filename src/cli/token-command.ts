import type { Command } from 'commander';
import type { CreateOptions } from './token.js';
import { USER_FLAGS, USER_HELP } from './user-option.js';

const DEFAULT_SCOPE = 'read follow mute block channels';
const DATABASE_HELP = 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)';

/**
 * `tidings token create|list|revoke`: bearer tokens for Microsub clients. `create` prints the new token
 * as the last line of stdout (scripts take it with `tail -n 1`); only its hash is stored.
 */
export function registerToken(program: Command): void {
  const token = program
    .command('token')
    .description('create, list and revoke access tokens for Microsub clients');
  token
    .command('create')
    .description('create a token and print it (as the last line of stdout); it is not shown again')
    .option('--scope <scopes>', 'space-separated scopes', DEFAULT_SCOPE)
    .option('--label <label>', 'who or what the token is for')
    .option(USER_FLAGS, 'whose token: the user it acts as (may be left out while there is one user)')
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: CreateOptions) => (await import('./token.js')).runTokenCreate(opts));
  token
    .command('list')
    .description('list the tokens (never their secrets)')
    .option('--json', 'print JSON: {"tokens": [...]}')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (opts: { json?: boolean; user?: string; database?: string }) =>
      (await import('./token.js')).runTokenList(opts),
    );
  token
    .command('revoke')
    .description('revoke a token: clients using it get 401 from then on')
    .argument('<id>', 'token id (from token list)')
    .option(USER_FLAGS, USER_HELP)
    .option('--database <url>', DATABASE_HELP)
    .action(async (id: string, opts: { user?: string; database?: string }) =>
      (await import('./token.js')).runTokenRevoke(id, opts),
    );
}
