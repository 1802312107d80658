import { createHash } from 'node:crypto';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { apiPasswordLogin, apiTokenUser, apiUser, issueApiToken, type Logins } from '../auth/index.js';
import { clientAddress, limitRequestBody, readRequestParams } from '../http/index.js';
import { StoreError } from '../store/index.js';
import { atomStream } from './atom.js';
import type { GReaderDeps } from './deps.js';
import { BadRequest } from './params.js';
import {
  editTag,
  itemIds,
  itemsContents,
  markAllAsRead,
  streamContents,
  unreadCount,
} from './stream-routes.js';
import {
  disableTag,
  quickAdd,
  renameTag,
  subscriptionEdit,
  subscriptionList,
  tagList,
} from './subscription-routes.js';

const MAX_BODY_BYTES = 1024 * 1024;
const API = '/reader/api/0';

/**
 * A call's handler. Its `deps.store` acts as the signed-in user (Store.forUser): the only store a
 * handler gets, so that no call reads or changes another user's data by accident.
 */
type Handler = (c: Context<Env>, deps: GReaderDeps) => Promise<Response>;

/** What requireToken leaves for the calls: the user whose Auth token the request carries. */
type Env = { Variables: { userId: number } };

// Every call of the API, GET or POST alike: apps differ in which they use.
const CALLS: Record<string, Handler> = {
  '/user-info': userInfo,
  '/token': writeToken,
  '/subscription/list': subscriptionList,
  '/subscription/quickadd': quickAdd,
  '/subscription/edit': subscriptionEdit,
  '/tag/list': tagList,
  '/rename-tag': renameTag,
  '/disable-tag': disableTag,
  '/unread-count': unreadCount,
  '/stream/items/ids': itemIds,
  '/stream/items/contents': itemsContents,
  '/stream/contents': streamContents,
  '/stream/contents/*': streamContents,
  '/edit-tag': editTag,
  '/mark-all-as-read': markAllAsRead,
};

/**
 * Every path the API answers under its mount point, from the table above: what the isolation test walks
 * (each call as one user with another user's ids), so that a call added here cannot be left out of it.
 */
export const GREADER_PATHS: readonly string[] = [
  '/accounts/ClientLogin',
  '/reader/ping',
  ...Object.keys(CALLS).map((path) => `${API}${path}`),
  '/reader/atom',
  '/reader/atom/*',
];

/**
 * The Google Reader API as FreshRSS and Miniflux serve it, mounted at /api/greader and
 * /api/greader.php: ClientLogin at /accounts/ClientLogin, the rest under /reader/api/0/ with
 * `Authorization: GoogleLogin auth=<token>`. JSON whatever `output` says (every app asks for json),
 * and the Atom stream at /reader/atom/<stream id> (atom.ts).
 */
export function greaderRoutes(deps: GReaderDeps): Hono<Env> {
  const logins = deps.logins;
  const app = new Hono<Env>();
  app.use(
    '*',
    limitRequestBody({ maxSize: MAX_BODY_BYTES, onError: (c) => c.text('greader: body too large', 413) }),
  );
  const login = (c: Context) => clientLogin(c, deps, logins);
  app.on(['GET', 'POST'], ['/accounts/ClientLogin', `${API}/accounts/ClientLogin`], login);
  app.use('/reader/*', requireToken(deps));
  app.on(['GET', 'POST'], '/reader/ping', (c) => c.text('OK'));
  for (const [path, handler] of Object.entries(CALLS))
    app.on(['GET', 'POST'], `${API}${path}`, (c) => guarded(c, deps, handler));
  app.on(['GET', 'POST'], ['/reader/atom', '/reader/atom/*'], (c) => guarded(c, deps, atomStream));
  app.all('*', (c) => c.text('greader: unknown call', 404));
  return app;
}

/**
 * A handler, given the deps of the request's user, whose refusals are 4xx and whose surprises are
 * logged 500s, never a stack trace.
 */
async function guarded(c: Context<Env>, deps: GReaderDeps, handler: Handler): Promise<Response> {
  try {
    return await handler(c, { ...deps, store: deps.store.forUser(c.get('userId')) });
  } catch (error) {
    if (error instanceof BadRequest) return c.text(`greader: ${error.message}`, error.status);
    if (error instanceof StoreError && error.kind !== 'conflict')
      return c.text(`greader: ${error.message}`, 400);
    deps.log.error({ err: error, path: c.req.path }, 'greader: request failed');
    return c.text('greader: something went wrong on our side', 500);
  }
}

/**
 * ClientLogin: `Email` (a user's name, or their app login name) and `Passwd` (their app password) in the
 * form or the query. Answers `SID=..\nLSID=..\nAuth=..\n` (or JSON with output=json) with a token of
 * that user; the token has no "=", since apps split these lines on it. An unknown name is answered as a
 * wrong password, after as long.
 */
async function clientLogin(c: Context, deps: GReaderDeps, logins: Logins): Promise<Response> {
  const params = await readRequestParams(c);
  const client = clientAddress(c);
  const now = deps.now();
  const user = params.one('Email') ?? '';
  const password = params.one('Passwd') ?? '';
  const login = await apiPasswordLogin(deps.store, logins, client, now.getTime(), user, password);
  // the answer carries a token, or may: no cache keeps it (RFC 9111 section 5.2.2.5)
  c.header('cache-control', 'no-store');
  if (login.kind === 'wait') {
    c.header('retry-after', String(login.seconds));
    return c.text('Error=BadAuthentication\n', 429);
  }
  if (login.kind === 'busy') {
    // ClientLogin's own word for "try later"
    c.header('retry-after', String(login.seconds));
    return c.text('Error=ServiceUnavailable\n', 503);
  }
  if (login.kind === 'refused') {
    deps.log.warn({ client }, 'greader: failed ClientLogin');
    return c.text('Error=BadAuthentication\n', 401);
  }
  const token = await issueApiToken(deps.store.forUser(login.value), now);
  if (params.one('output') === 'json') return c.json({ SID: token, LSID: token, Auth: token });
  return c.text(`SID=${token}\nLSID=${token}\nAuth=${token}\n`);
}

/** The Auth token of `Authorization: GoogleLogin auth=<token>` (some apps add a newline or quotes). */
function authToken(header: string | undefined): string | undefined {
  const match = /^\s*GoogleLogin\s+auth="?([^"\s]+)"?\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** 401 without a live Auth token; else the token's user is the request's (Env). */
function requireToken(deps: GReaderDeps): MiddlewareHandler<Env> {
  return async (c, next) => {
    const token = authToken(c.req.header('authorization'));
    const userId = token === undefined ? undefined : await apiTokenUser(deps.store, token, deps.now());
    if (userId === undefined) {
      c.header('www-authenticate', 'GoogleLogin');
      return c.text('Unauthorized', 401);
    }
    c.set('userId', userId);
    await next();
  };
}

/**
 * GET token: the write token `T`. The Auth token travels in a header, which a cross-site form cannot
 * send, so writes do not require T: apps send it raw with its newline, or not at all (as Miniflux and
 * FreshRSS effectively accept). It is derived from the Auth token, so it is stable per session.
 */
async function writeToken(c: Context): Promise<Response> {
  const token = authToken(c.req.header('authorization')) ?? '';
  const t = createHash('sha256').update(`T:${token}`).digest('hex').slice(0, 57);
  c.header('cache-control', 'no-store');
  return c.text(`${t}\n`);
}

/** GET user-info: the signed-in user, by the name their apps were given (else their user name). */
async function userInfo(c: Context, deps: GReaderDeps): Promise<Response> {
  const { store } = deps;
  const name = (await apiUser(store)) ?? (await store.users.get(store.userId))?.name ?? '';
  const id = String(store.userId);
  return c.json({ userId: id, userName: name, userProfileId: id, userEmail: name.includes('@') ? name : '' });
}
