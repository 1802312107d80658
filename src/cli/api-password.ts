import { checkApiCredentials, setApiPassword } from '../auth/index.js';
import { isUserName, type Store } from '../store/index.js';
import { withApp } from './app.js';
import { askTwice, passwordFromInput, readStdin } from './password.js';
import { UserError } from './user-error.js';
import { type ActingUser, passwordUser } from './user-option.js';

/** `tidings api-password` (api-password-command.ts defines it): sets a user's app password. */
export async function runApiPassword(opts: { user?: string; database?: string }): Promise<void> {
  const password = process.stdin.isTTY ? await askTwice() : passwordFromInput(await readStdin());
  // the name is checked with the password when given; without one it is a user's, a user name already
  const problem =
    password === undefined ? 'the two passwords differ' : checkApiCredentials(opts.user ?? 'user', password);
  if (problem || password === undefined) throw new UserError(`api-password: ${problem}; nothing changed`);
  const { owner, login } = await withApp({ database: opts.database }, async (app) => {
    const user =
      opts.user === undefined
        ? await passwordUser(app.store, undefined, 'api-password')
        : await appUser(app.store, opts.user);
    // the user's name as it is stored (NAME may differ in case); any other NAME is an app login name
    const name =
      opts.user === undefined || opts.user.toLowerCase() === user.name.toLowerCase() ? user.name : opts.user;
    await setApiPassword(app.store.forUser(user.id), name, password);
    return { owner: user.name, login: name };
  });
  const whose = owner.toLowerCase() === login.toLowerCase() ? '' : ` (user ${owner})`;
  process.stdout.write(
    `API password set for ${login}${whose}; apps signed in before must sign in again\n` +
      'Google Reader API: https://YOUR-HOST/api/greader  Fever API: https://YOUR-HOST/api/fever\n',
  );
}

/**
 * Whose app password `--user NAME` sets: the user NAME; on a new instance the first user (NAME when it is
 * a user name, else `admin`); with one user, that user whatever NAME is.
 */
async function appUser(store: Store, name: string): Promise<ActingUser> {
  const named = await store.users.byName(name);
  if (named) return { id: named.id, name: named.name, isAdmin: named.isAdmin };
  if (await store.users.isEmpty())
    return passwordUser(store, isUserName(name) ? name : undefined, 'api-password');
  const sole = await store.users.sole();
  if (sole) return { id: sole.id, name: sole.name, isAdmin: sole.isAdmin };
  throw new UserError(`api-password: there is no user ${name} (tidings user list shows them)`);
}
