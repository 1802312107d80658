import type { Context, Hono } from 'hono';
import { checkNewPassword, confirmPassword, setUserPassword } from '../../auth/index.js';
import { clientAddress } from '../../http/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { passwordField } from '../forms.js';
import { depsOf, redirectWith, renderPage, sessionOf, userOf } from '../render.js';
import { AccountView } from '../views/index.js';

/**
 * GET /account (who is signed in); POST /account/password: each user changes their own password with
 * the current one, which is checked as a sign-in is (counted against the client's login limit). Their
 * other sessions end; this browser gets a new session.
 */
export function registerAccount(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/account', (c) => accountPage(c, ctx));
  app.post('/account/password', async (c) => {
    const user = userOf(c);
    const current = await passwordField(c, 'current');
    const password = await passwordField(c, 'password');
    const again = await passwordField(c, 'again');
    if (password !== again) return accountPage(c, ctx, 'The two new passwords differ; nothing changed.', 400);
    const problem = checkNewPassword(password);
    if (problem) return accountPage(c, ctx, `The password was not changed: ${problem}.`, 400);
    const now = ctx.deps.now();
    const check = await confirmPassword(
      ctx.instance,
      ctx.logins,
      clientAddress(c),
      now.getTime(),
      user,
      current,
    );
    if (check.kind === 'wait' || check.kind === 'busy') {
      c.header('retry-after', String(check.seconds));
      const words = 'Too many password attempts for now; nothing changed. Try again later.';
      return accountPage(c, ctx, words, check.kind === 'wait' ? 429 : 503);
    }
    if (check.kind !== 'ok')
      return accountPage(c, ctx, 'The current password is not right; nothing changed.', 400);
    await setUserPassword(depsOf(c).store, password, now);
    // the new password ended every session of this user started before now, this one too: start another
    await ctx.sessions.start(c, user);
    return redirectWith(c, ctx, '/account', 'Password changed. Your other sessions are signed out.');
  });
}

function accountPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  error?: string,
  status: 200 | 400 | 429 | 503 = 200,
): Promise<Response> {
  const user = userOf(c);
  const children = (
    <AccountView name={user.name} isAdmin={user.isAdmin} csrf={sessionOf(c).csrf} error={error} />
  );
  return renderPage(c, ctx, { title: 'Your account', nav: 'account', children }, status);
}
