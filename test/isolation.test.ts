// Isolation between users (issue 24), generated from the route tables of the apps' front ends: every
// Microsub action (MICROSUB_ACTIONS), every Google Reader path (GREADER_PATHS) and every Fever argument
// and mark (FEVER_ARGUMENTS, FEVER_MARKS) is called as ann with bob's ids, and again with missing ids.
// Each answer must hold nothing of bob's (his marker, his channel's uid, his feed's icon URL) but what
// the request itself sent, must be the answer to the missing ids, and bob's state must be as it was.
// A route added to a table without a case here fails the test; so does one that leaks. Microsub's event
// streams are checked by listening as ann while bob changes things through every front end.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { FEVER_ARGUMENTS, FEVER_MARKS } from '../src/fever/index.js';
import { longItemId } from '../src/greader/ids.js';
import { GREADER_PATHS } from '../src/greader/index.js';
import { MICROSUB_ACTIONS } from '../src/microsub/index.js';
import { signIn } from './greader/harness.js';
import { type SseEvent, sseReader } from './helpers/sse-reader.js';
import { storeBackends } from './helpers/temp-store.js';
import {
  type Compared,
  feverLeak,
  leakIn,
  openTwoUsers,
  sameAsMissing,
  stateOf,
  type TwoUsers,
} from './helpers/two-users.js';

/** The ids a request names: bob's, or missing ones in their place. */
interface Ids {
  channelUid: string;
  channelId: string;
  channelName: string;
  entry: string;
  feed: string;
  feedUrl: string;
  ruleUrl: string;
  query: string;
  userName: string;
}

function bobsIds(t: TwoUsers): Ids {
  return {
    channelUid: t.bob.channel.uid,
    channelId: String(t.bob.channel.id),
    channelName: t.bob.channel.name,
    entry: String(t.bob.ownEntries[0]),
    feed: String(t.bob.ownFeed.id),
    feedUrl: t.bob.ownFeed.url,
    ruleUrl: 'https://bobonly.example/muted',
    query: 'BOBONLY',
    userName: 'bob',
  };
}

function missingIds(t: TwoUsers): Ids {
  return {
    channelUid: '00000000-0000-4000-8000-000000000000',
    channelId: '987654321',
    channelName: 'No such folder',
    entry: '987654322',
    feed: '987654323',
    feedUrl: t.h.url('/no-such-feed.xml'),
    ruleUrl: 'https://missing.example/rule',
    query: 'NOSUCHWORD',
    userName: 'nobody',
  };
}

/** A value as a query string carries it (spaces as "+"). */
function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * Each value of bob's paired with the missing one in its place, raw and URL-encoded, and as stream ids
 * (but those of the keys `leaving`).
 */
function pairsOf(foreign: Ids, missing: Ids, leaving: readonly (keyof Ids)[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of (Object.keys(foreign) as (keyof Ids)[]).filter((k) => !leaving.includes(k))) {
    const a = foreign[key];
    const b = missing[key];
    for (const [x, y] of [
      [a, b],
      [`feed/${a}`, `feed/${b}`],
      [`user/-/label/${a}`, `user/-/label/${b}`],
      [longItemId(Number(a) || 0), longItemId(Number(b) || 0)],
    ])
      if (x !== undefined && y !== undefined)
        pairs.push([x, y], [encodeURIComponent(x), encodeURIComponent(y)], [formEncoded(x), formEncoded(y)]);
  }
  // the longest first, so that a value inside another is replaced after it
  return pairs.sort((p, q) => q[0].length - p[0].length);
}

type Params = Record<string, string | string[]>;

/**
 * Microsub: the parameters of each action's requests, with the ids of `x` (bob's or missing ones) and
 * ann's own channel and feed where the request needs some of hers.
 */
function microsubCases(t: TwoUsers, x: Ids): Record<string, Params[]> {
  const mine = t.ann.channel.uid;
  return {
    channels: [
      { channel: x.channelUid, name: 'Renamed' },
      { channels: [x.channelUid] },
      { channel: x.channelUid },
    ],
    timeline: [
      { channel: x.channelUid },
      { channel: x.channelUid, entry: x.entry },
      { channel: mine, entry: x.entry },
      { channel: mine, last_read_entry: x.entry },
      { channel: mine, source: x.feed },
      { channel: mine, source: x.feedUrl },
    ],
    follow: [{ channel: x.channelUid, url: t.ann.ownFeed.url }],
    unfollow: [
      { channel: x.channelUid, url: t.shared.url },
      { channel: mine, url: x.feedUrl },
    ],
    mute: [{ channel: x.channelUid }, { channel: x.channelUid, url: 'https://new.example/' }],
    unmute: [
      { channel: x.channelUid, url: x.ruleUrl },
      { channel: 'global', url: x.ruleUrl },
    ],
    block: [{ channel: x.channelUid }, { channel: x.channelUid, url: 'https://new.example/' }],
    unblock: [
      { channel: x.channelUid, url: x.ruleUrl },
      { channel: 'global', url: x.ruleUrl },
    ],
    search: [
      { query: x.query },
      { query: x.query, channel: 'global' },
      { query: x.query, channel: mine },
      { query: x.query, channel: x.channelUid },
    ],
    // previews a URL anyone may fetch, storing and reading nothing of anyone's: no id to give it
    preview: [],
    // the event stream is listened to below, while bob changes things
    events: [],
  };
}

/** A Google Reader request: a GET with a query, or a POST with a form; `path` replaces a path ending in `*`. */
interface GReaderCase {
  query?: Params;
  form?: Params;
  path?: string;
}

function greaderCases(t: TwoUsers, x: Ids): Record<string, GReaderCase[]> {
  const feed = `feed/${x.feed}`;
  const byUrl = `feed/${x.feedUrl}`;
  const label = `user/-/label/${x.channelName}`;
  const streams = [feed, byUrl, label];
  const api = '/reader/api/0';
  const entries = [x.entry, longItemId(Number(x.entry))];
  const states = ['read', 'starred', 'kept-unread'].map((s) => `user/-/state/com.google/${s}`);
  return {
    '/accounts/ClientLogin': [{ form: { Email: x.userName, Passwd: t.ann.appPassword } }],
    '/reader/ping': [{}],
    [`${api}/user-info`]: [{}],
    [`${api}/token`]: [{}],
    [`${api}/subscription/list`]: [{}],
    [`${api}/subscription/quickadd`]: [{ form: { quickadd: feed } }],
    [`${api}/subscription/edit`]: [
      ...['unsubscribe', 'edit'].flatMap((ac) =>
        [feed, byUrl].map((s) => ({ form: { ac, s, t: 'Mine', a: 'user/-/label/Taken' } })),
      ),
      { form: { ac: 'subscribe', s: feed, a: 'user/-/label/Taken' } },
    ],
    [`${api}/tag/list`]: [{}],
    [`${api}/rename-tag`]: [{ form: { s: label, dest: 'Mine now' } }],
    [`${api}/disable-tag`]: [{ form: { s: label } }],
    [`${api}/unread-count`]: [{}],
    [`${api}/stream/items/ids`]: streams.map((s) => ({ query: { s } })),
    [`${api}/stream/items/contents`]: [{ form: { i: entries } }],
    [`${api}/stream/contents`]: streams.map((s) => ({ query: { s } })),
    [`${api}/stream/contents/*`]: streams.map((s) => ({
      path: `${api}/stream/contents/${encodeURIComponent(s)}`,
    })),
    [`${api}/edit-tag`]: states.flatMap((state) => [
      { form: { i: entries, a: state } },
      { form: { i: entries, r: state } },
    ]),
    [`${api}/mark-all-as-read`]: streams.map((s) => ({ form: { s } })),
    '/reader/atom': streams.map((s) => ({ query: { s } })),
    '/reader/atom/*': streams.map((s) => ({ path: `/reader/atom/${encodeURIComponent(s)}` })),
  };
}

/** Fever: the query of each argument's requests, and of each mark, with the ids of `x`. */
function feverCases(x: Ids): Record<string, string[]> {
  const idOf: Record<string, string> = { item: x.entry, feed: x.feed, group: x.channelId };
  return {
    groups: ['groups'],
    feeds: ['feeds'],
    favicons: ['favicons'],
    links: ['links'],
    items: [`items&with_ids=${x.entry}`, `items&with_ids=${x.entry},${x.entry}`],
    unread_item_ids: ['unread_item_ids'],
    saved_item_ids: ['saved_item_ids'],
    mark: Object.entries(FEVER_MARKS).flatMap(([mark, values]) =>
      values.map((as) => `mark=${mark}&as=${as}&id=${idOf[mark] ?? ''}`),
    ),
  };
}

function formBody(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
  return body;
}

async function compared(res: Response): Promise<Compared> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}

for (const backend of storeBackends()) {
  describe(`isolation between users, every route of the apps (${backend.name})`, {
    skip: backend.skip,
  }, () => {
    let t: TwoUsers;
    let bobBefore: unknown;
    let foreign: Ids;
    let missing: Ids;
    let pairs: [string, string][];
    let sent: string[];
    let greaderAuth: string;

    before(async () => {
      t = await openTwoUsers(backend);
      foreign = bobsIds(t);
      missing = missingIds(t);
      pairs = pairsOf(foreign, missing);
      // what a request sends comes back in messages and stream ids; a search's words never do, and
      // stripping them would hide bob's marker
      sent = pairsOf(foreign, missing, ['query']).map(([a]) => a);
      greaderAuth = (await signIn(t.h, '/api/greader', { email: 'ann', password: t.ann.appPassword })).token;
      bobBefore = await stateOf(t.bob.store);
    });

    after(async () => {
      await t.h.close();
      await backend.cleanup();
    });

    /** Checks the two answers of one case: nothing of bob's, the same as for missing ids. */
    function check(what: string, a: Compared, b: Compared): void {
      const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      const leak = leakIn(t, text, sent);
      assert.equal(leak, undefined, `${what}: bob's ${leak} in ${text.slice(0, 500)}`);
      sameAsMissing(a, b, pairs, what);
    }

    it("walks every Microsub action as ann with bob's ids", async () => {
      const asked = microsubCases(t, foreign);
      assert.deepEqual(
        Object.keys(asked).sort(),
        MICROSUB_ACTIONS.map((spec) => spec.action).sort(),
        'every action has its cases here',
      );
      let calls = 0;
      for (const spec of MICROSUB_ACTIONS) {
        const cases = asked[spec.action] ?? [];
        const twins = microsubCases(t, missing)[spec.action] ?? [];
        for (const [i, params] of cases.entries())
          for (const httpMethod of spec.httpMethods)
            for (const method of httpMethod === 'GET' ? [undefined] : spec.postMethods) {
              const call = (p: Params) => {
                const all = { action: spec.action, ...(method === undefined ? {} : { method }), ...p };
                return httpMethod === 'GET'
                  ? t.h.get(all, t.ann.token)
                  : t.h.post(all, { token: t.ann.token });
              };
              const what = `microsub ${httpMethod} ${spec.action} ${method ?? ''} ${JSON.stringify(params)}`;
              check(what, await call(params), await call(twins[i] ?? {}));
              calls++;
            }
      }
      assert.ok(calls > 50, `${calls} calls`);
      assert.deepEqual(await stateOf(t.bob.store), bobBefore);
    });

    it("walks every Google Reader path as ann with bob's ids", async () => {
      const asked = greaderCases(t, foreign);
      const twins = greaderCases(t, missing);
      assert.deepEqual(Object.keys(asked).sort(), [...GREADER_PATHS].sort(), 'every path has its cases here');
      for (const path of GREADER_PATHS)
        for (const [i, c] of (asked[path] ?? []).entries()) {
          const call = async (one: GReaderCase | undefined) => {
            const target = `/api/greader${one?.path ?? path}`;
            const query = one?.query ? `?${formBody(one.query)}` : '';
            const headers: Record<string, string> = { authorization: `GoogleLogin auth=${greaderAuth}` };
            const init: RequestInit = one?.form
              ? {
                  method: 'POST',
                  body: formBody(one.form),
                  headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
                }
              : { headers };
            return compared(await t.h.app.request(`${target}${query}`, init));
          };
          check(`greader ${path} ${JSON.stringify(c)}`, await call(c), await call(twins[path]?.[i]));
        }
      assert.deepEqual(await stateOf(t.bob.store), bobBefore);
    });

    it("walks every Fever argument and mark as ann with bob's ids", async () => {
      const asked = feverCases(foreign);
      const twins = feverCases(missing);
      assert.deepEqual(
        Object.keys(asked).sort(),
        Object.keys(FEVER_ARGUMENTS).sort(),
        'every argument has its cases',
      );
      const fever = async (query: string) =>
        compared(
          await t.h.app.request(`/api/fever?api&${query}`, {
            method: 'POST',
            body: new URLSearchParams({ api_key: t.ann.feverKey }),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          }),
        );
      for (const [argument, queries] of Object.entries(asked))
        for (const [i, query] of queries.entries()) {
          const a = await fever(query);
          assert.equal((a.body as { auth?: number }).auth, 1);
          assert.equal(feverLeak(t, a.body as Record<string, unknown>), undefined, `fever ${query}`);
          check(`fever ${argument} ${query}`, a, await fever(twins[argument]?.[i] ?? ''));
        }
      // every item of ann's, all at once: none of bob's among them
      for (const query of ['items&since_id=0', 'groups&feeds&favicons&unread_item_ids&saved_item_ids']) {
        const all = await fever(query);
        assert.equal(feverLeak(t, all.body as Record<string, unknown>), undefined, `fever ${query}`);
        check(`fever ${query}`, all, all);
      }
      assert.deepEqual(await stateOf(t.bob.store), bobBefore);
    });

    describe('Microsub event streams', () => {
      let base: string;
      let close: () => Promise<void>;

      before(async () => {
        const server = serve({ fetch: t.h.app.fetch, hostname: '127.0.0.1', port: 0 });
        await new Promise<void>((resolve) => server.once('listening', () => resolve()));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        close = () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            if ('closeAllConnections' in server) server.closeAllConnections();
          });
      });
      after(() => close());

      it('tells ann nothing of what bob does through any front end', { timeout: 30_000 }, async () => {
        const abort = new AbortController();
        const response = await fetch(`${base}/microsub?action=events`, {
          headers: { authorization: `Bearer ${t.ann.token}`, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        assert.equal(response.status, 200);
        const next = sseReader(response.body as ReadableStream<Uint8Array>);
        await next();
        try {
          const bobMicrosub = (params: Params) => t.h.post(params, { token: t.bob.token });
          const bobChannel = t.bob.channel.uid;
          const bobEntry = String(t.bob.ownEntries[1]);
          await bobMicrosub({
            action: 'timeline',
            channel: bobChannel,
            method: 'mark_read',
            entry: bobEntry,
          });
          await bobMicrosub({ action: 'channels', name: 'BOBONLY new channel' });
          await bobMicrosub({ action: 'mute', channel: bobChannel, url: 'https://bobonly.example/more' });
          const bobReader = await signIn(t.h, '/api/greader', { email: 'bob', password: t.bob.appPassword });
          await bobReader.post('edit-tag', {
            i: longItemId(Number(bobEntry)),
            r: 'user/-/state/com.google/read',
          });
          await t.h.app.request(`/api/fever?api&mark=group&as=read&id=${t.bob.channel.id}`, {
            method: 'POST',
            body: new URLSearchParams({ api_key: t.bob.feverKey }),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          const doc = t.h.docs['/bobonly-feed.xml'];
          t.h.docs['/bobonly-feed.xml'] = {
            body: (doc?.body ?? '').replace(
              '</channel>',
              '<item><guid>BOBONLY-late</guid><title>BOBONLY late</title></item></channel>',
            ),
            type: 'application/rss+xml',
          };
          await t.h.poll(t.bob.ownFeed.url);
          // ann's own change last: her stream must reach it having sent nothing else
          await t.h.post(
            {
              action: 'timeline',
              channel: t.ann.channel.uid,
              method: 'mark_read',
              entry: String(t.ann.ownEntries[0]),
            },
            { token: t.ann.token },
          );
          const events: SseEvent[] = [];
          for (;;) {
            let timer: NodeJS.Timeout | undefined;
            const late = new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error("ann's own change was not announced within 5 s")),
                5_000,
              );
            });
            const event = await Promise.race([next(), late]).finally(() => clearTimeout(timer));
            assert.equal(leakIn(t, event.data), undefined, `ann heard ${event.event} ${event.data}`);
            events.push(event);
            if (event.event && event.data.includes(t.ann.channel.uid)) break;
          }
          assert.deepEqual(
            events.filter((e) => e.event).map((e) => e.event),
            ['change-channel'],
          );
        } finally {
          abort.abort();
        }
      });
    });
  });
}
