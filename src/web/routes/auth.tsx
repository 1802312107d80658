import type { Context, Hono } from 'hono';
import { hasWebPassword, userLogin } from '../../auth/index.js';
import { clientAddress } from '../../http/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, localPath, passwordField } from '../forms.js';
import { renderPage, sessionOf } from '../render.js';
import { LoginForm, SetPasswordFirst } from '../views/index.js';

/** GET/POST /login (before any session) */
export function registerLogin(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/login', async (c) => {
    if (await ctx.sessions.read(c)) return c.redirect('/', 303);
    return loginPage(c, ctx, localPath(c.req.query('next') ?? '/', '/'));
  });
  app.post('/login', async (c) => {
    const client = clientAddress(c);
    const nowMs = ctx.deps.now().getTime();
    // a body that does not parse is a 400 here, before the limiter: no password was tried, none is counted
    const next = localPath(await field(c, 'next'), '/');
    const wait = ctx.logins.owner.retryAfterSeconds(client, nowMs);
    if (wait > 0) return tooMany(c, ctx, next, wait);
    if (!(await ctx.sessions.checkLoginNonce(c, await field(c, '_csrf'))))
      return loginPage(c, ctx, next, 'The form had expired; please sign in again.', 403);
    const username = await field(c, 'username');
    const password = await passwordField(c, 'password');
    const login = await userLogin(ctx.instance, ctx.logins, client, nowMs, username, password);
    if (login.kind === 'wait') return tooMany(c, ctx, next, login.seconds);
    if (login.kind === 'busy') {
      c.header('retry-after', String(login.seconds));
      const words = 'tidings is busy checking other sign-ins; nothing was tried. Try again in a few seconds.';
      return loginPage(c, ctx, next, words, 503);
    }
    if (login.kind === 'refused') {
      ctx.deps.log.warn({ client }, 'web: failed login');
      return loginPage(c, ctx, next, 'That name or password is not right.', 401, username);
    }
    await ctx.sessions.start(c, login.user);
    // the answer sets the session cookie: no cache keeps it
    c.header('cache-control', 'no-store');
    return c.redirect(next, 303);
  });
}

function tooMany(c: Context<WebEnv>, ctx: WebContext, next: string, seconds: number): Promise<Response> {
  c.header('retry-after', String(seconds));
  const minutes = Math.ceil(seconds / 60);
  return loginPage(c, ctx, next, `Too many failed attempts. Try again in ${minutes} min.`, 429);
}

/** POST /logout (with a session and its CSRF token) */
export function registerLogout(app: Hono<WebEnv>, ctx: WebContext): void {
  app.post('/logout', async (c) => {
    await ctx.sessions.end(c, sessionOf(c));
    return c.redirect('/login', 303);
  });
}

async function loginPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  next: string,
  error?: string,
  status: 200 | 401 | 403 | 429 | 503 = 200,
  username = '',
): Promise<Response> {
  if (!(await hasWebPassword(ctx.instance)))
    return renderPage(
      c,
      ctx,
      { title: 'Set a password', nav: 'none', children: <SetPasswordFirst /> },
      status,
    );
  const nonce = await ctx.sessions.loginNonce(c);
  const children = <LoginForm nonce={nonce} next={next} error={error} username={username} />;
  return renderPage(c, ctx, { title: 'Sign in', nav: 'none', children }, status);
}
