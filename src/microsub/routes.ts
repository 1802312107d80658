import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { limitRequestBody } from '../http/index.js';
import { actionFor } from './actions/index.js';
import { Authenticator, bearerToken, type Grant, hasAnyScope } from './auth.js';
import type { ActionContext, MicrosubOptions } from './context.js';
import type { MicrosubDeps } from './deps.js';
import { MicrosubError, toMicrosubError } from './errors.js';
import { Jf2Cache } from './jf2-cache.js';
import { type Params, readParams } from './params.js';
import { requiredScopes } from './scopes.js';
import { ChannelSignals } from './signals.js';
import { EventStreams } from './streams.js';

const MAX_BODY_BYTES = 1024 * 1024;

// Tokens travel in a header, never in cookies: any origin may call, and none gets credentials. The
// headers a preflight asks for are allowed as asked (Hono's cors() echoes them when none are listed):
// an EventSource polyfill sends Authorization with Cache-Control and Last-Event-ID.
const CORS = {
  origin: '*',
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  maxAge: 86_400,
};

/**
 * The Microsub endpoint (https://indieweb.org/Microsub-spec), mounted at /microsub: GET and POST with
 * the action in a parameter, bearer tokens, CORS for web clients that call it from the page, and the
 * spec's JSON errors; bad input is never a 500.
 */
export function microsubRoutes(deps: MicrosubDeps, options: MicrosubOptions = {}): Hono {
  const app = new Hono();
  const endpoint: Endpoint = {
    deps,
    options,
    auth: new Authenticator(deps),
    jf2: new Jf2Cache(),
    signals: new ChannelSignals(deps.store, deps.events.relay, (err) =>
      deps.log.warn({ err }, 'microsub: a channel change could not be relayed'),
    ),
    streams: new EventStreams(options.streams, (err) =>
      deps.log.warn({ err }, 'microsub: could not check the token of an event stream'),
    ),
  };
  // Hono's cors() sets its header on c.res before the handler runs, which makes every answer be built
  // twice (as a stream, 0.2 ms a timeline page): preflights get cors(), the rest this one header after.
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', '*');
  });
  app.options('*', cors(CORS));
  app.use('*', limitRequestBody({ maxSize: MAX_BODY_BYTES, onError: tooLarge }));
  app.get('/', (c) => respond(c, endpoint));
  app.post('/', (c) => respond(c, endpoint));
  // any other method: the spec's JSON error, not a plain-text 404
  app.all('/', (c) => {
    c.header('Allow', 'GET, POST, OPTIONS');
    const description = `microsub: the endpoint answers GET and POST, not ${c.req.method.slice(0, 20)}`;
    return c.json({ error: 'invalid_request', error_description: description }, 405);
  });
  return app;
}

function tooLarge(c: Context): Response {
  const description = `microsub: the body exceeds ${MAX_BODY_BYTES} bytes`;
  return c.json({ error: 'invalid_request', error_description: description }, 413);
}

/** Answers one request; what the client got wrong is a 4xx, anything else is logged and a 500. */
async function respond(c: Context, endpoint: Endpoint): Promise<Response> {
  try {
    return await answer(c, endpoint);
  } catch (error) {
    const known = toMicrosubError(error);
    if (known) return errorResponse(c, known);
    endpoint.deps.log.error({ err: error }, 'microsub: request failed');
    const description = 'microsub: something went wrong on our side';
    return c.json({ error: 'internal_error', error_description: description }, 500);
  }
}

interface Endpoint {
  deps: MicrosubDeps;
  auth: Authenticator;
  signals: ChannelSignals;
  jf2: Jf2Cache;
  options: MicrosubOptions;
  streams: EventStreams;
}

async function answer(c: Context, endpoint: Endpoint): Promise<Response> {
  const httpMethod = c.req.method === 'POST' ? 'POST' : 'GET';
  const params = await readParams(c.req.raw);
  const grant = await authenticate(c, endpoint.auth, params);
  const action = params.one('action');
  const handler = actionFor(action, httpMethod);
  const needed = requiredScopes(action as string, httpMethod, params);
  if (!hasAnyScope(grant, needed)) {
    throw new MicrosubError('insufficient_scope', `microsub: this needs the scope ${needed.join(' or ')}`);
  }
  const { signals, jf2, options, streams } = endpoint;
  // open event streams ask again whether the token is valid (a revoked token closes them), and still
  // the same user's (an IndieAuth `me` given to another user since)
  const token = bearerToken(c.req.header('authorization'), params.one('access_token')) ?? '';
  const isTokenValid = async () => (await endpoint.auth.authenticate(token))?.userId === grant.userId;
  const ctx: ActionContext = {
    deps: actingDeps(endpoint.deps, grant),
    signals,
    jf2,
    options,
    params,
    grant,
    httpMethod,
    hono: c,
    streams,
    isTokenValid,
  };
  const result = await handler(ctx);
  return result instanceof Response ? result : c.json(result);
}

/**
 * The endpoint's deps for one request: the store acts as the token's user (Store.forUser), the only
 * store an action gets, so that no action reads or changes another user's channels by accident.
 */
function actingDeps(deps: MicrosubDeps, grant: Grant): MicrosubDeps {
  return { ...deps, store: deps.store.forUser(grant.userId) };
}

async function authenticate(c: Context, auth: Authenticator, params: Params): Promise<Grant> {
  const token = bearerToken(c.req.header('authorization'), params.one('access_token'));
  if (token === undefined) throw new MicrosubError('unauthorized', 'microsub: an access token is required');
  const grant = await auth.authenticate(token);
  if (!grant) throw new MicrosubError('unauthorized', 'microsub: the access token is not valid');
  return grant;
}

function errorResponse(c: Context, error: MicrosubError): Response {
  // RFC 6750 section 3: a 401 names the scheme, a 403 for scope names the error
  if (error.status === 401) c.header('WWW-Authenticate', 'Bearer');
  if (error.status === 403) c.header('WWW-Authenticate', 'Bearer error="insufficient_scope"');
  return c.json({ error: error.code, error_description: error.message }, error.status);
}
