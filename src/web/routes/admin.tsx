import type { Context, Hono } from 'hono';
import { checkNewPassword, setUserPassword } from '../../auth/index.js';
import { type StoredUser, StoreError } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf, passwordField } from '../forms.js';
import { errorPage, redirectWith, renderPage, sessionOf, userOf } from '../render.js';
import { RemoveUserView, UsersView } from '../views/index.js';

// The admins' pages (issue 24): routes.ts answers 403 under /admin for everyone else. They act on the
// instance's users (ctx.instance), never on one user's reading.

type Refusal = { status: 400 | 404 | 409; message: string };

/** GET /admin/users; POST /admin/users (add), /admin/users/:id/password (reset), /admin/users/:id/remove */
export function registerAdmin(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/admin/users', (c) => usersPage(c, ctx));
  app.post('/admin/users', (c) => addUser(c, ctx));
  app.post('/admin/users/:id/password', async (c) => {
    const user = await userOfPath(c, ctx);
    if (!user) return errorPage(c, ctx, 404, 'There is no such user.');
    const password = await passwordField(c, 'password');
    const problem = checkNewPassword(password);
    if (problem)
      return usersPage(c, ctx, { status: 400, message: `${user.name}'s password was not set: ${problem}.` });
    await setUserPassword(ctx.instance.forUser(user.id), password, ctx.deps.now());
    // their sessions ended; when it is the admin's own password, this browser stays signed in
    if (user.id === userOf(c).id) await ctx.sessions.start(c, userOf(c));
    return redirectWith(
      c,
      ctx,
      '/admin/users',
      `Set a new password for ${user.name}; their sessions are signed out.`,
    );
  });
  app.post('/admin/users/:id/remove', async (c) => {
    const user = await userOfPath(c, ctx);
    if (!user) return errorPage(c, ctx, 404, 'There is no such user.');
    if (user.id === userOf(c).id)
      return usersPage(c, ctx, { status: 400, message: 'You cannot remove yourself; another admin can.' });
    if ((await field(c, 'confirm')) !== 'yes') {
      const children = <RemoveUserView user={user} csrf={sessionOf(c).csrf} />;
      return renderPage(c, ctx, { title: `Remove ${user.name}?`, nav: 'users', children });
    }
    const refused = await refusalOf(() => ctx.instance.users.remove(user.id, ctx.deps.now().toISOString()));
    if (refused) return usersPage(c, ctx, refused);
    return redirectWith(c, ctx, '/admin/users', `Removed ${user.name} and everything of theirs.`);
  });
}

async function addUser(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const name = await field(c, 'name');
  const isAdmin = (await field(c, 'admin')) === '1';
  const password = await passwordField(c, 'password');
  const typed = { name, isAdmin };
  const problem = checkNewPassword(password);
  if (problem)
    return usersPage(
      c,
      ctx,
      { status: 400, message: `${name || 'The user'} was not added: ${problem}.` },
      typed,
    );
  const now = ctx.deps.now();
  const { users } = ctx.instance;
  // an instance signed into before anyone was named (only user 1, pending, with a password set by hand):
  // the first add would take that user over, so name it first as whom the admin signed in
  if (await users.isEmpty()) await users.add({ name: userOf(c).name, isAdmin: true }, now.toISOString());
  let added: StoredUser | undefined;
  const refused = await refusalOf(async () => {
    added = await users.add({ name, isAdmin }, now.toISOString());
  });
  if (refused || !added) return usersPage(c, ctx, refused ?? { status: 400, message: 'Not added.' }, typed);
  await setUserPassword(ctx.instance.forUser(added.id), password, now);
  const role = added.isAdmin ? 'an admin' : 'a user';
  return redirectWith(c, ctx, '/admin/users', `Added ${added.name}, ${role}: they can sign in now.`);
}

async function usersPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  refusal?: Refusal,
  typed?: { name: string; isAdmin: boolean },
): Promise<Response> {
  const users = await ctx.instance.users.list();
  const children = (
    <UsersView
      users={users}
      selfId={userOf(c).id}
      csrf={sessionOf(c).csrf}
      error={refusal?.message}
      typed={typed}
    />
  );
  return renderPage(c, ctx, { title: 'Users', nav: 'users', children }, refusal?.status ?? 200);
}

/** The user of the path's `:id`, undefined when there is none. */
async function userOfPath(c: Context<WebEnv>, ctx: WebContext): Promise<StoredUser | undefined> {
  const id = idOf(c.req.param('id'));
  return id === undefined ? undefined : ctx.instance.users.get(id);
}

/** Runs a users change; the store's refusal (a bad or taken name, the last admin) as a page's answer. */
async function refusalOf(change: () => Promise<unknown>): Promise<Refusal | undefined> {
  try {
    await change();
    return undefined;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    const status = error.kind === 'conflict' ? 409 : error.kind === 'not_found' ? 404 : 400;
    if (error.kind === 'unavailable' || error.kind === 'config') throw error;
    return { status, message: sentence(error.message) };
  }
}

// "store: the user name ann is taken" -> "The user name ann is taken."
function sentence(message: string): string {
  const text = message.replace(/^[a-z]+: /, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
