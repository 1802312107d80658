import type { Store } from '../store/index.js';
import { EXIT_USAGE, UserError } from './user-error.js';

/** `--user NAME`, as every command that reads or changes one person's data takes it. */
export const USER_FLAGS = '--user <name>';
export const USER_HELP = 'whose data (a user name); may be left out while the instance has one user';

/** The user a command acts for. */
export interface ActingUser {
  id: number;
  name: string;
  isAdmin: boolean;
}

/**
 * The user `--user NAME` names, or, without it, the one user of the instance. An instance nobody has set
 * up yet acts as its first user (user 1, still to be named: `tidings user add` or `password` names it).
 * With several users and no `--user`, one line asking for it and exit 2.
 */
export async function actingUser(
  store: Store,
  name: string | undefined,
  command: string,
): Promise<ActingUser> {
  if (name !== undefined) {
    const user = await store.users.byName(name);
    if (!user) throw new UserError(`${command}: there is no user ${name} (tidings user list shows them)`);
    return { id: user.id, name: user.name, isAdmin: user.isAdmin };
  }
  const sole = await store.users.sole();
  if (sole) return { id: sole.id, name: sole.name, isAdmin: sole.isAdmin };
  if (await store.users.isEmpty()) return { id: store.userId, name: 'admin', isAdmin: true };
  throw new UserError(`${command}: this instance has several users: say whose with --user NAME`, {
    exitCode: EXIT_USAGE,
  });
}

/**
 * The user a password command sets the password of. On an instance nobody has set up yet, the first
 * password creates the first user, an admin, named `name` (`admin` when none is given); after that, as
 * actingUser.
 */
export async function passwordUser(
  store: Store,
  name: string | undefined,
  command: string,
): Promise<ActingUser> {
  if (!(await store.users.isEmpty())) return actingUser(store, name, command);
  const wanted = name ?? 'admin';
  await requireUserName(wanted, command);
  const user = await store.users.add({ name: wanted, isAdmin: true }, new Date().toISOString());
  return { id: user.id, name: user.name, isAdmin: true };
}

/** One line when `name` cannot name a user (the store's rule), before anything is asked or changed. */
export async function requireUserName(name: string, command: string): Promise<void> {
  // loaded here: the commands' definitions import this file, and the CLI starts without the store
  const { isUserName } = await import('../store/index.js');
  if (!isUserName(name))
    throw new UserError(
      `${command}: ${JSON.stringify(name.slice(0, 80))} is not a user name: use 1 to 64 letters, digits, dots, dashes or underscores`,
    );
}
