import { type Context, Hono } from 'hono';
import { feverKeyLogin, type Logins } from '../auth/index.js';
import { clientAddress, limitRequestBody, type RequestParams, readRequestParams } from '../http/index.js';
import { type AppFeeds, appFeeds, streamJsonObject } from '../reading/index.js';
import type { Store } from '../store/index.js';
import type { FeverDeps } from './deps.js';
import { faviconIdsOf, faviconsOf } from './favicons.js';
import { feedsOf, groupsOf, itemsOf, StreamedItems, unixSeconds } from './items.js';
import { applyMark } from './mark.js';

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The Fever API, mounted at /api/fever and /api/fever.php: `?api` with `api_key` = md5("USER:PASSWORD")
 * in the form (or the query), which names the user whose groups, feeds and items the answer holds. Every answer is HTTP 200 JSON with `api_version` 3 and `auth` 0 or 1, as
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
    // the key named its user: everything below is theirs (Store.forUser), never the root store's
    const body = await answer({ ...deps, store: deps.store.forUser(login.value) }, params, now);
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

/** What one argument adds to an answer, from the user's store and view. */
type Part = (store: Store, view: AppFeeds, params: RequestParams) => Promise<object>;

// Every read argument of the API, in the order the answer carries them. The spec's `feeds` answer
// carries feeds_groups too; a mark answers with the lists it changed, as Fever's own server did.
const PARTS: Readonly<Record<string, Part>> = {
  groups: async (_store, view) => groupsOf(view),
  feeds: async (store, view) => ({
    feeds: feedsOf(view, await faviconIdsOf(store, view)),
    feeds_groups: groupsOf(view).feeds_groups,
  }),
  favicons: async (store, view) => ({ favicons: await faviconsOf(store, await faviconIdsOf(store, view)) }),
  links: async () => ({ links: [] }),
  items: async (store, _view, params) => itemsOf(store, params),
  unread_item_ids: async (store) => ({
    unread_item_ids: (await store.sync.ids({ readState: 'unread' })).join(','),
  }),
  saved_item_ids: async (store) => ({
    saved_item_ids: (await store.sync.ids({ savedOnly: true })).join(','),
  }),
};

/**
 * Every argument of the API (`?api&groups&mark=item...`) with the parameters it reads: what the
 * isolation test walks, each as one user with another user's ids, so that none is left out of it.
 */
export const FEVER_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(Object.keys(PARTS).map((name) => [name, []])),
  items: ['since_id', 'max_id', 'with_ids'],
  mark: ['as', 'id', 'before'],
};

/** The answer of an authenticated call; `deps.store` is the key's user's. */
async function answer(deps: FeverDeps, params: RequestParams, now: Date): Promise<Record<string, unknown>> {
  const { store } = deps;
  if (params.has('mark')) await applyMark(store, params, now);
  const view = await appFeeds(store);
  const lastRefreshed = Math.max(0, ...view.feeds.map((feed) => unixSeconds(feed.lastCheckedAt)));
  const body = base(1, lastRefreshed);
  const marked = params.has('mark');
  const asked = (name: string) =>
    params.has(name) ||
    (marked && name === 'unread_item_ids') ||
    (params.one('mark') === 'item' && name === 'saved_item_ids');
  for (const [name, part] of Object.entries(PARTS))
    if (asked(name)) Object.assign(body, await part(store, view, params));
  return body;
}
