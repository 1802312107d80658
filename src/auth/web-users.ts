import type { Store } from '../store/index.js';
import { hashPassword, PASSWORD_SETTING, SESSIONS_NOT_BEFORE_SETTING } from './password-hash.js';

// The people who sign in to the web UI (issue 24): each user's own password ('owner.password' in their
// user settings) and the time before which their sessions are refused.

/** A signed-in person, as the web UI needs them. */
export interface WebUser {
  id: number;
  name: string;
  isAdmin: boolean;
}

const MIN_PASSWORD_LENGTH = 8;

/** What is wrong with a new web password, or undefined when it will do. */
export function checkNewPassword(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `use at least ${MIN_PASSWORD_LENGTH} characters`;
  return lineBreakIn(password);
}

/**
 * A password with a line break inside (several lines piped to the CLI) could never be typed into a
 * password field or an app: refused, not stored.
 */
export function lineBreakIn(password: string): string | undefined {
  return /[\r\n]/.test(password) ? 'the password must be one line (the input had more than one)' : undefined;
}

/**
 * Stores the scrypt hash of the store's user's web password and signs out that user's sessions
 * started before `now` (other users' sessions stay).
 */
export async function setUserPassword(
  store: Store,
  password: string,
  now: Date,
  cost: { N?: number } = {},
): Promise<void> {
  await store.accounts.setUserSetting(PASSWORD_SETTING, await hashPassword(password, cost));
  await signOutSessions(store, now);
}

/** Refuses the store's user's web sessions started before `now`. */
export async function signOutSessions(store: Store, now: Date): Promise<void> {
  await store.accounts.setUserSetting(SESSIONS_NOT_BEFORE_SETTING, String(now.getTime()));
}

/** True when some user has a web password: until then the web UI says how to set one. */
export async function hasWebPassword(instance: Store): Promise<boolean> {
  const set = await instance.accounts.usersWithSetting(PASSWORD_SETTING);
  return set.some((row) => row.value !== '');
}

/**
 * The user a sign-in names: by name (in any case), or, with no name, the one user of the instance.
 * An instance nobody has set up yet acts as its first user (user 1, still to be named), as the CLI does
 * (src/cli/user-option.ts). Undefined for an unknown name, or no name while there are several users.
 */
export async function loginUser(instance: Store, name: string): Promise<WebUser | undefined> {
  if (name !== '') {
    const user = await instance.users.byName(name);
    return user && { id: user.id, name: user.name, isAdmin: user.isAdmin };
  }
  const sole = await instance.users.sole();
  if (sole) return { id: sole.id, name: sole.name, isAdmin: sole.isAdmin };
  return (await instance.users.isEmpty()) ? firstUser(instance) : undefined;
}

/** The user with this id while they exist (a removed user's sessions end), as loginUser finds them. */
export async function webUser(instance: Store, id: number): Promise<WebUser | undefined> {
  const user = await instance.users.identity(id);
  if (user) return { id: user.id, name: user.name, isAdmin: user.isAdmin };
  return id === instance.userId && (await instance.users.isEmpty()) ? firstUser(instance) : undefined;
}

function firstUser(instance: Store): WebUser {
  return { id: instance.userId, name: 'admin', isAdmin: true };
}
