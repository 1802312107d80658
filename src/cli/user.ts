import { apiUser, setUserPassword } from '../auth/index.js';
import { type StoredUser, StoreError } from '../store/index.js';
import { type App, withApp } from './app.js';
import { askTwice, checkPassword, passwordFromInput, readStdin } from './password.js';
import { plural } from './plural.js';
import { textTable } from './table.js';
import { UserError } from './user-error.js';
import { requireUserName } from './user-option.js';

/** `tidings user add` (user-command.ts defines it). */
export async function runUserAdd(
  name: string,
  opts: { admin?: boolean; me?: string; database?: string },
): Promise<void> {
  const me = opts.me === undefined ? undefined : profileUrl(opts.me, 'user add');
  // a name that cannot be is refused before the password is asked for (twice, at a terminal)
  await requireUserName(name, 'user add');
  const password = process.stdin.isTTY ? await askTwice() : passwordFromInput(await readStdin());
  const problem = password === undefined ? 'the two passwords differ' : checkPassword(password);
  if (problem || password === undefined) throw new UserError(`user add: ${problem}; nobody was added`);
  process.exitCode = await withApp({ database: opts.database }, async (app) => {
    const added = await storeCall('user add', () =>
      app.store.users.add(
        { name, isAdmin: opts.admin === true, ...(me ? { me } : {}) },
        new Date().toISOString(),
      ),
    );
    await setUserPassword(app.store.forUser(added.id), password, new Date());
    process.stdout.write(`added ${added.name}${added.isAdmin ? ' (admin)' : ''}\n`);
    return 0;
  });
}

/** `tidings user list` (user-command.ts defines it). */
export async function runUserList(opts: { json?: boolean; database?: string }): Promise<void> {
  process.exitCode = await withApp({ database: opts.database }, async (app) => {
    const users = await app.store.users.list();
    process.stdout.write(
      opts.json ? `${JSON.stringify({ users: users.map(userJson) })}\n` : userTable(users),
    );
    return 0;
  });
}

/** `tidings user remove` (user-command.ts defines it). */
export async function runUserRemove(name: string, opts: { yes?: boolean; database?: string }): Promise<void> {
  if (opts.yes !== true)
    throw new UserError(`user remove: this removes ${name} and all of their data; add --yes to do it`, {
      exitCode: 2,
    });
  process.exitCode = await withApp({ database: opts.database }, async (app) => {
    const found = await named(app, name, 'user remove');
    const removed = await storeCall('user remove', () =>
      app.store.users.remove(found.id, new Date().toISOString()),
    );
    const left = removed.unfollowedFeedIds.length;
    const feeds =
      left === 0
        ? ''
        : `; ${plural(left, 'feed')} nobody follows now ${left === 1 ? 'is' : 'are'} no longer polled`;
    process.stdout.write(`removed ${found.name}${feeds}\n`);
    return 0;
  });
}

/** `tidings user rename` (user-command.ts defines it). */
export async function runUserRename(
  oldName: string,
  newName: string,
  opts: { database?: string },
): Promise<void> {
  process.exitCode = await withApp({ database: opts.database }, async (app) => {
    const found = await named(app, oldName, 'user rename');
    const renamed = await storeCall('user rename', () => app.store.users.rename(found.id, newName));
    process.stdout.write(`renamed ${found.name} to ${renamed.name}\n`);
    // the Fever key is made of the name the app password was set with: it cannot follow the rename
    const appName = await apiUser(app.store.forUser(found.id));
    if (appName !== undefined && appName.toLowerCase() !== renamed.name.toLowerCase())
      process.stdout.write(
        `their apps still sign in as ${appName} until their app password is set again (tidings api-password --user ${renamed.name})\n`,
      );
    return 0;
  });
}

/** `tidings user set` (user-command.ts defines it). */
export async function runUserSet(
  name: string,
  opts: { admin?: boolean; me?: string; database?: string },
): Promise<void> {
  const me = opts.me === undefined ? undefined : opts.me === '' ? null : profileUrl(opts.me, 'user set');
  process.exitCode = await withApp({ database: opts.database }, async (app) => {
    const found = await named(app, name, 'user set');
    const patch = {
      ...(opts.admin === undefined ? {} : { isAdmin: opts.admin }),
      ...(me === undefined ? {} : { me }),
    };
    const changed = await storeCall('user set', () => app.store.users.set(found.id, patch));
    process.stdout.write(`${describe(changed)}\n`);
    return 0;
  });
}

/** The user with this name, or one line saying there is none. */
async function named(app: App, name: string, command: string): Promise<StoredUser> {
  const found = await app.store.users.byName(name);
  if (!found) throw new UserError(`${command}: there is no user ${name} (tidings user list shows them)`);
  return found;
}

/** A store call whose refusal (bad or taken name, the last admin) is the user's mistake: one line. */
async function storeCall<T>(command: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof StoreError && error.kind !== 'unavailable' && error.kind !== 'config')
      throw new UserError(`${command}: ${error.message.replace(/^store: /, '')}`);
    throw error;
  }
}

/** An IndieAuth profile URL as given, when it is an http(s) URL; else one line. */
function profileUrl(value: string, command: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`${command}: --me must be a URL such as https://ann.example/`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UserError(`${command}: --me must be an http or https URL`);
  // IndieAuth: a profile URL has no fragment and no user name or password
  if (url.hash !== '' || value.includes('#'))
    throw new UserError(`${command}: --me must have no #fragment (IndieAuth profile URLs have none)`);
  if (url.username !== '' || url.password !== '')
    throw new UserError(`${command}: --me must have no user name or password in it`);
  return url.href;
}

/** A user as `user list --json` prints them: exactly these fields (tools outside read them). */
function userJson(user: StoredUser): { name: string; admin: boolean; subscriptions: number } {
  return { name: user.name, admin: user.isAdmin, subscriptions: user.subscriptions };
}

function describe(user: StoredUser): string {
  const role = user.isAdmin ? 'admin' : 'not an admin';
  return `${user.name}: ${role}${user.me ? `, signs in to Microsub as ${user.me}` : ''}`;
}

function userTable(users: StoredUser[]): string {
  if (users.length === 0)
    return 'no users yet: tidings user add NAME (or tidings password) creates the first\n';
  const rows = users.map((u) => [u.name, u.isAdmin ? 'admin' : '', String(u.subscriptions), u.me ?? '']);
  return textTable(['name', 'role', 'subscriptions', 'me'], rows);
}
