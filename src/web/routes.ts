// Security of the web UI, in one place:
// - Users (issue 24), each with their own password (`tidings password --user NAME`, `tidings user add`,
//   the admins' /admin/users, /account: scrypt, random salt, in the user's settings as owner.password).
//   Until some user has one the UI stays closed and /login says how to set it. There is no open first-run
//   mode, not even on 127.0.0.1: other local users and browsers' DNS rebinding could reach it.
// - Sessions: a cookie signed with HMAC-SHA256 under a secret generated once into the settings, naming
//   its user; HttpOnly, SameSite=Lax, Secure over https, 30 days (session.ts).
// - Isolation: after the auth middleware every handler works with the user's own store (depsOf(c).store,
//   store.forUser): another user's channels, entries and tokens are as missing. The instance's store is
//   ctx.instance, for signing in, sessions and the admins' pages only. /admin/* is 403 for non-admins.
// - CSRF: Hono's csrf() checks Origin / Sec-Fetch-Site on every form POST, and every form carries a
//   per-session token (an HMAC of the session id) in `_csrf`, checked on every POST; the login form
//   carries a nonce of its own (a signed cookie) since no session exists yet.
// - Login: at most 5 attempts per client address per 15 minutes, counted before the password is checked,
//   and a bound on password checks at once for the whole server (src/auth/logins.ts). An unknown user
//   name costs a password check too and gets the same answer as a wrong password.
// - Every page: a Content-Security-Policy with no inline script or style, and the usual secure headers.
//   Feed HTML was sanitized by the parser; it is the one thing inserted with raw() (views/reader.tsx).
import { type Context, Hono, type MiddlewareHandler, type Next } from 'hono';
import { csrf } from 'hono/csrf';
import { html } from 'hono/html';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { limitRequestBody } from '../http/index.js';
import { StoreError, storeFault } from '../store/index.js';
import { ClientError, withoutModule } from './client-error.js';
import { compress } from './compress.js';
import type { WebDeps } from './deps.js';
import type { WebContext, WebEnv } from './env.js';
import { field, wantsJson } from './forms.js';
import { OpmlJobs } from './opml-jobs.js';
import { errorPage } from './render.js';
import {
  registerAccount,
  registerAdmin,
  registerAlerts,
  registerChannels,
  registerEntryActions,
  registerHealth,
  registerIcons,
  registerLogin,
  registerLogout,
  registerOpml,
  registerReader,
  registerRefresh,
  registerRules,
  registerSavedPages,
  registerSubscriptions,
  registerTokens,
} from './routes/index.js';
import { Sessions, sameSecret } from './session.js';
import { userOf } from './signed-in.js';
import { assetPath, registerStatic } from './static.js';

// No inline script or style anywhere: feed HTML that slipped past the sanitizer still cannot run.
// Images and media come from anywhere (feeds embed them); everything else from this site only.
const SECURITY_HEADERS = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'http:', 'https:', 'data:'],
    mediaSrc: ["'self'", 'http:', 'https:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
  },
  xFrameOptions: 'DENY',
  // cross-origin images in entries have no CORP header; COEP would block them
  crossOriginEmbedderPolicy: false,
});

const MAX_FORM_BYTES = 10 * 1024 * 1024;

/** The web UI: reader, admin and feed health, behind the users' logins. */
export function webRoutes(deps: WebDeps): Hono<WebEnv> {
  const { store: instance, ...shared } = deps;
  const ctx: WebContext = {
    deps: shared,
    instance,
    sessions: new Sessions(instance, deps.now),
    logins: deps.logins,
    jobs: new OpmlJobs(),
  };
  const app = new Hono<WebEnv>();
  // first, so that it sees every other middleware's answer; web routes only (never Microsub's SSE)
  app.use('*', exceptMicrosub(compress()));
  app.use('*', exceptMicrosub(SECURITY_HEADERS));
  // Origin / Sec-Fetch-Site check on every form POST, before our own token check below
  app.use('*', exceptMicrosub(originCheck()));
  // forms are small; an OPML file of thousands of feeds is a few MB
  app.use(
    '*',
    exceptMicrosub(
      limitRequestBody({
        maxSize: MAX_FORM_BYTES,
        onError: (c) => c.text('web: the upload is too large (10 MB at most)', 413),
      }),
    ),
  );
  registerStatic(app);
  registerLogin(app, ctx);
  app.use('*', exceptMicrosub(requireSession(ctx)));
  app.use('/admin/*', adminsOnly(ctx));
  registerLogout(app, ctx);
  registerAccount(app, ctx);
  registerAdmin(app, ctx);
  registerReader(app, ctx);
  registerSavedPages(app, ctx);
  registerIcons(app);
  registerRefresh(app, ctx);
  registerEntryActions(app, ctx);
  registerChannels(app, ctx);
  registerSubscriptions(app, ctx);
  registerOpml(app, ctx);
  registerTokens(app, ctx);
  registerAlerts(app, ctx);
  registerRules(app, ctx);
  registerHealth(app, ctx);
  // last: every path no route above answered is a 404 page (signed in, since requireSession ran first)
  app.all(
    '*',
    exceptMicrosub(() => {
      throw new ClientError(404, 'web: there is no such page here');
    }),
  );
  app.onError((error, c) => answerError(c, ctx, error));
  return app;
}

/**
 * The answer to an error a web route threw: the client's mistakes (a form that does not parse, a paging
 * cursor tidings did not write, an unknown id) are 4xx pages with a message, or JSON for the page's script;
 * anything else is rethrown for the server's 500 and its log line.
 */
function answerError(c: Context<WebEnv>, ctx: WebContext, error: Error): Response | Promise<Response> {
  // Hono's own refusals (body limits) carry their response
  if (error instanceof HTTPException) return error.getResponse();
  const down = storeFault(error, `answering ${c.req.method} ${c.req.path}`);
  if (down) return databaseDown(c, ctx, down);
  const refusal = clientRefusal(error);
  if (!refusal) throw error;
  if (wantsJson(c)) {
    const code = refusal.status === 404 ? 'not_found' : 'invalid_request';
    return c.json({ error: code, error_description: refusal.message }, refusal.status);
  }
  return errorPage(c, ctx, refusal.status, refusal.words);
}

// A database that does not answer (a lost connection, a full disk, maintenance): a 503 to try again, as a
// page that needs nothing of the database (the usual pages read the sidebar from it), or JSON for scripts.
function databaseDown(c: Context<WebEnv>, ctx: WebContext, fault: StoreError): Response | Promise<Response> {
  ctx.deps.log.error({ err: fault, path: c.req.path }, 'web: the database is not answering');
  c.header('retry-after', '10');
  c.header('cache-control', 'no-store');
  const words = 'The database is not answering just now. Nothing was lost; try again in a moment.';
  if (wantsJson(c)) return c.json({ error: 'unavailable', error_description: words }, 503);
  // hono's html escapes what it is given, as every page's template does (the path is the client's)
  return c.html(
    html`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>tidings: try again</title><link rel="stylesheet" href="${assetPath('app.css')}"></head><body><main class="panel narrow"><h1>Try again in a moment</h1><p>${words}</p><p><a href="${c.req.path}">Try again</a></p></main></body></html>`,
    503,
  );
}

function clientRefusal(error: Error): { status: 400 | 404; message: string; words: string } | undefined {
  if (error instanceof ClientError)
    return { status: error.status, message: error.message, words: withoutModule(error.message) };
  if (!(error instanceof StoreError)) return undefined;
  const status = error.kind === 'not_found' ? 404 : 400;
  const words = /cursor/.test(error.message)
    ? 'This page link is not one tidings wrote (its paging cursor is edited or out of date). Start again from the first page.'
    : withoutModule(error.message);
  return { status, message: error.message, words };
}

// Mounted at '/', this app's middleware would also see unmatched /microsub and /api/ (sync API) paths:
// leave those alone (an API client gets a plain 404, not the sign-in page).
function exceptMicrosub(middleware: MiddlewareHandler<WebEnv>): MiddlewareHandler<WebEnv> {
  return (c, next) => {
    const path = c.req.path;
    if (path === '/microsub' || path.startsWith('/microsub/') || path.startsWith('/api/')) return next();
    return middleware(c, next);
  };
}

// Hono's csrf() throws an HTTPException, which the app's onError would turn into a 500: answer 403 here.
// A POST that names no origin at all (a privacy extension or proxy strips Origin, and the browser sent no
// Sec-Fetch-Site) is left to the session's CSRF token, which every signed-in form carries; one from
// another site is refused.
function originCheck(): MiddlewareHandler<WebEnv> {
  const check = csrf();
  return async (c, next) => {
    if (c.req.header('origin') === undefined && c.req.header('sec-fetch-site') === undefined) return next();
    let passed = false;
    try {
      return await check(c, async () => {
        passed = true;
        await next();
      });
    } catch (error) {
      if (passed || !(error instanceof HTTPException)) throw error;
      return c.text('web: this form came from another site; refused', 403);
    }
  };
}

/** Signed-in pages only; every POST must carry the session's CSRF token in `_csrf`. */
function requireSession(ctx: WebContext): MiddlewareHandler<WebEnv> {
  return async (c: Context<WebEnv>, next: Next) => {
    const session = await ctx.sessions.read(c);
    const isRead = c.req.method === 'GET' || c.req.method === 'HEAD';
    if (!session) {
      if (wantsJson(c)) return c.json({ error: 'unauthorized', error_description: 'sign in first' }, 401);
      const url = new URL(c.req.url);
      const next = isRead ? `?next=${encodeURIComponent(url.pathname + url.search)}` : '';
      return c.redirect(`/login${next}`, 303);
    }
    c.set('session', session);
    // the user's own store: the handlers' only store (depsOf)
    c.set('deps', { ...ctx.deps, store: ctx.instance.forUser(session.user.id) });
    if (!isRead && !sameSecret(await field(c, '_csrf'), session.csrf)) {
      if (wantsJson(c)) return c.json({ error: 'forbidden', error_description: 'bad CSRF token' }, 403);
      return errorPage(
        c,
        ctx,
        403,
        'This form had expired or did not come from tidings. Reload the page and try again.',
      );
    }
    await next();
    // private pages: never kept by shared caches, nor by the browser's back-forward cache after logout.
    // Set on the answer's headers: c.header() after the handler copies the whole answer (1 ms for a
    // reader page, whose body it converts again).
    if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
  };
}

/** The admins' pages: everyone else gets a 403 page, whatever the path under /admin. */
function adminsOnly(ctx: WebContext): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    if (!userOf(c).isAdmin) return errorPage(c, ctx, 403, 'Only an admin may manage the users of tidings.');
    await next();
  };
}
