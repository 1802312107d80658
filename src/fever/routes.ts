import { type Context, Hono } from 'hono';
import { feverKeyLogin, type Logins } from '../auth/index.js';
import { clientAddress, limitRequestBody, type RequestParams, readRequestParams } from '../http/index.js';
import { appFeeds, streamJsonObject } from '../reading/index.js';
import type { FeverDeps } from './deps.js';
import { faviconIdsOf, faviconsOf } from './favicons.js';
import { feedsOf, groupsOf, itemsOf, StreamedItems, unixSeconds } from './items.js';
import { applyMark } from './mark.js';

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The Fever API, mounted at /api/fever and /api/fever.php: `?api` with `api_key` = md5("USER:PASSWORD")
 * in the form (or the query). Every answer is HTTP 200 JSON with `api_version` 3 and `auth` 0 or 1, as
 * the apps expect; keys are rate-limited per client address like the web UI's logins (src/auth/logins.ts).
 */
export function feverRoutes(deps: FeverDeps): Hono {
  const logins = deps.logins;
  const app = new Hono();
  const tooLarge = { ...base(0), error: `fever: the body exceeds ${MAX_BODY_BYTES} bytes` };
  app.use('*', limitRequestBody({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(tooLarge, 413) }));
  const handle = (c: Context) => respond(c, deps, logins);
  app.on(['GET', 'POST'], ['/', '/*'], handle);
  return app;
}

function base(auth: 0 | 1, lastRefreshed = 0): Record<string, unknown> {
  return { api_version: 3, auth, last_refreshed_on_time: lastRefreshed };
}

async function respond(c: Context, deps: FeverDeps, logins: Logins): Promise<Response> {
  const params = await readRequestParams(c);
  const client = clientAddress(c);
  const now = deps.now();
  const key = params.one('api_key') ?? '';
  const login = await feverKeyLogin(deps.store, logins, client, now.getTime(), key);
  if (login.kind === 'wait') {
    // Fever has no "too many": its refusal is auth 0, as for a wrong key
    c.header('retry-after', String(login.seconds));
    return c.json(base(0));
  }
  if (login.kind === 'busy') {
    // a passing condition of the server, not a wrong key: apps keep the account and try again
    c.header('retry-after', String(login.seconds));
    return c.json(
      { ...base(0), error: 'fever: busy checking other logins; try again in a few seconds' },
      503,
    );
  }
  if (login.kind === 'refused') {
    deps.log.warn({ client }, 'fever: refused an api_key');
    return c.json(base(0));
  }
  try {
    const body = await answer(deps, params, now);
    const items = body['items'];
    if (!(items instanceof StreamedItems)) return c.json(body);
    // the items last, written as they are read: no answer is one string of every item
    delete body['items'];
    const json = streamJsonObject(body, 'items', logged(deps, items.json));
    return c.body(json, 200, { 'content-type': 'application/json' });
  } catch (err) {
    deps.log.error({ err }, 'fever: request failed');
    return c.json({ ...base(1), error: 'fever: something went wrong on our side' }, 500);
  }
}

async function* logged(deps: FeverDeps, items: AsyncIterable<string>): AsyncGenerator<string> {
  try {
    yield* items;
  } catch (err) {
    // the 200 is sent already: the answer ends unfinished, which the app sees as a failed call
    deps.log.error({ err }, 'fever: request failed while writing its answer');
    throw err;
  }
}

async function answer(deps: FeverDeps, params: RequestParams, now: Date): Promise<Record<string, unknown>> {
  const { store } = deps;
  if (params.has('mark')) await applyMark(store, params, now);
  const view = await appFeeds(store);
  const lastRefreshed = Math.max(0, ...view.feeds.map((feed) => unixSeconds(feed.lastCheckedAt)));
  const body = base(1, lastRefreshed);
  if (params.has('groups')) Object.assign(body, groupsOf(view));
  // the spec's `feeds` answer carries feeds_groups too
  const iconIds = params.has('feeds') || params.has('favicons') ? await faviconIdsOf(store, view) : undefined;
  if (params.has('feeds') && iconIds)
    Object.assign(body, { feeds: feedsOf(view, iconIds), feeds_groups: groupsOf(view).feeds_groups });
  if (params.has('favicons') && iconIds) body['favicons'] = await faviconsOf(store, iconIds);
  if (params.has('links')) body['links'] = [];
  if (params.has('items')) Object.assign(body, await itemsOf(store, params));
  // a mark answers with the lists it changed, as Fever's own server did
  if (params.has('unread_item_ids') || params.has('mark'))
    body['unread_item_ids'] = (await store.sync.ids({ readState: 'unread' })).join(',');
  if (params.has('saved_item_ids') || params.one('mark') === 'item')
    body['saved_item_ids'] = (await store.sync.ids({ savedOnly: true })).join(',');
  return body;
}
