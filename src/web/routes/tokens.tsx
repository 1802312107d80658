import type { Context, Hono } from 'hono';
import { apiUser, checkApiCredentials, setApiPassword, type WebUser } from '../../auth/index.js';
import { TOKEN_SCOPES } from '../../store/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, fields, idOf } from '../forms.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf, userOf } from '../render.js';
import { ApiAccessView, type TokensProps, TokensView } from '../views/index.js';

// The URLs apps are given, as the README's table gives them (src/server/app.ts mounts both APIs with and
// without .php; "FreshRSS" accounts in NetNewsWire, Reeder and Read You expect greader.php).
const GREADER_PATH = '/api/greader.php';
const FEVER_PATH = '/api/fever.php';

/** GET /tokens; POST /tokens (create, shown once), /tokens/:id/revoke, /tokens/api-password */
export function registerTokens(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/tokens', (c) => tokensPage(c, ctx));
  app.post('/tokens', async (c) => {
    const wanted = new Set(await fields(c, 'scope'));
    const scope = TOKEN_SCOPES.filter((s) => wanted.has(s)).join(' ');
    if (!scope) return errorPage(c, ctx, 400, 'A token needs at least one scope.');
    const label = (await field(c, 'label')).slice(0, 200);
    const now = ctx.deps.now().toISOString();
    const { token } = await depsOf(c).store.accounts.issueToken({ scope, ...(label ? { label } : {}) }, now);
    // answered with the page itself, not a redirect: the token exists only in this response
    return tokensPage(c, ctx, { token, label: label || undefined });
  });
  app.post('/tokens/api-password', async (c) => {
    const user = (await field(c, 'user')).trim() || userOf(c).name;
    const password = await field(c, 'password');
    const problem = checkApiCredentials(user, password) ?? (await otherName(ctx, userOf(c), user));
    if (problem) return errorPage(c, ctx, 400, `The API password was not set: ${problem}.`);
    await setApiPassword(depsOf(c).store, user, password);
    return redirectWith(c, ctx, '/tokens#api', `API password set for ${user}; apps must sign in again.`);
  });
  app.post('/tokens/:id/revoke', async (c) => {
    const id = idOf(c.req.param('id'));
    if (!id) return errorPage(c, ctx, 404, 'There is no such token.');
    // another user's token is as missing: nothing revoked
    if (!(await depsOf(c).store.accounts.revokeToken(id, ctx.deps.now().toISOString())))
      return errorPage(c, ctx, 404, 'There is no such token.');
    return redirectWith(c, ctx, '/tokens', 'Revoked the token.');
  });
}

/**
 * Why the apps may not sign in as `name` for this user: the apps name a user by their user name (issue
 * 24). An instance of one user may keep another name for its apps, as `tidings api-password --user`
 * allows (an app account of before accounts kept its name).
 */
async function otherName(ctx: WebContext, user: WebUser, name: string): Promise<string | undefined> {
  if (name.toLowerCase() === user.name.toLowerCase()) return undefined;
  const [count, named] = await Promise.all([ctx.instance.users.count(), ctx.instance.users.byName(name)]);
  if (count <= 1 && named === undefined) return undefined;
  return `apps sign in with your user name, ${user.name}`;
}

async function tokensPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  created?: TokensProps['created'],
): Promise<Response> {
  const { store } = depsOf(c);
  const tokens = await store.accounts.listTokens();
  const endpoint = new URL('/microsub', c.req.url).href;
  const user = await apiUser(store);
  const children = (
    <>
      <TokensView
        tokens={tokens}
        csrf={sessionOf(c).csrf}
        now={ctx.deps.now()}
        created={created}
        endpoint={endpoint}
      />
      <ApiAccessView
        csrf={sessionOf(c).csrf}
        user={user}
        userName={userOf(c).name}
        greaderUrl={new URL(GREADER_PATH, c.req.url).href}
        feverUrl={new URL(FEVER_PATH, c.req.url).href}
      />
    </>
  );
  return renderPage(c, ctx, { title: 'Tokens', nav: 'tokens', children });
}
