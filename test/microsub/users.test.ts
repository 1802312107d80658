// Microsub with two users (issue 24): each token acts as its user, with their own channels (each has a
// `notifications`), timelines, read state, rules and event streams; another user's channel, entry or
// feed is answered as a missing one and stays as it was. IndieAuth tokens act as the user whose `me`
// the endpoint named; `serve --me` keeps a one-user instance working.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { type SseEvent, sseReader } from '../helpers/sse-reader.js';
import { storeBackends } from '../helpers/temp-store.js';
import { leakIn, openTwoUsers, sameAsMissing, stateOf, type TwoUsers } from '../helpers/two-users.js';
import { type Answer, openHarness } from './harness.js';

const MISSING_UID = '00000000-0000-4000-8000-000000000000';
const MISSING_ID = '987654321';

type Items = { _id: string; name?: string; _is_read: boolean; _is_saved: boolean; _source: string }[];

for (const backend of storeBackends()) {
  describe(`microsub with two users (${backend.name})`, { skip: backend.skip }, () => {
    let t: TwoUsers;
    let bobBefore: unknown;
    let endpoint: TestServer;

    before(async () => {
      endpoint = await startServer({
        '/token': (req, res) => {
          const answers: Record<string, string> = {
            'Bearer bob-indie': 'https://BOB.example',
            'Bearer stranger-indie': 'https://stranger.example/',
            'Bearer owner-indie': 'https://owner.example/',
          };
          const me = answers[req.headers.authorization ?? ''];
          if (me)
            send(res, 200, JSON.stringify({ me, scope: 'read' }), { 'content-type': 'application/json' });
          else send(res, 401, '{"error":"unauthorized"}', { 'content-type': 'application/json' });
        },
      });
      t = await openTwoUsers(backend, {
        indieAuth: { tokenEndpoint: `${endpoint.url}/token`, me: 'https://owner.example/' },
      });
      await t.h.store.users.set(t.bob.id, { me: 'https://bob.example/' });
      bobBefore = await stateOf(t.bob.store);
    });

    after(async () => {
      // whatever ann did, bob's channels, state, rules and tokens are as they were
      assert.deepEqual(await stateOf(t.bob.store), bobBefore);
      await endpoint.close();
      await t.h.close();
      await backend.cleanup();
    });

    const asAnn = (params: Record<string, string | string[]>) => t.h.get(params, t.ann.token);
    const postAsAnn = (params: Record<string, string | string[]>) => t.h.post(params, { token: t.ann.token });

    /** Asserts that the answer holds nothing of bob's but what the request sent, and returns it. */
    function clean(answer: Answer, sent: readonly string[] = []): Answer {
      const leak = leakIn(t, JSON.stringify(answer.body), sent);
      assert.equal(leak, undefined, `bob's ${leak} in ${JSON.stringify(answer.body).slice(0, 400)}`);
      return answer;
    }

    it("lists each user's own channels, each with their own notifications", async () => {
      const ann = clean(await asAnn({ action: 'channels' })).body['channels'] as {
        uid: string;
        name: string;
      }[];
      const bob = (await t.h.get({ action: 'channels' }, t.bob.token)).body['channels'] as { uid: string }[];
      assert.deepEqual(
        ann.map((c) => c.uid),
        ['notifications', t.ann.channel.uid],
      );
      assert.deepEqual(
        bob.map((c) => c.uid),
        ['notifications', t.bob.channel.uid],
      );
    });

    it("shows the user's timeline with their own read and saved state of a shared feed", async () => {
      const items = clean(await asAnn({ action: 'timeline', channel: t.ann.channel.uid, limit: '50' })).body[
        'items'
      ] as Items;
      const [s1, s2, s3, s4] = t.shared.entries.map(String);
      const byId = new Map(items.map((item) => [item._id, item]));
      assert.equal(items.length, 3 + 4);
      assert.equal(byId.get(s1 as string)?._is_saved, false, "bob's save is his");
      assert.equal(byId.get(s2 as string)?._is_read, false, "bob's read is his");
      assert.equal(byId.get(s3 as string)?._is_read, true);
      assert.equal(byId.get(s4 as string)?._is_saved, true);
      const bobs = (await t.h.get({ action: 'timeline', channel: t.bob.channel.uid }, t.bob.token)).body[
        'items'
      ] as Items;
      assert.equal(bobs.find((item) => item._id === s2)?._is_read, true);
    });

    it("answers another user's channel as a missing one, whatever the action", async () => {
      const cases: [string, Record<string, string | string[]>, 'GET' | 'POST'][] = [
        ['timeline', { action: 'timeline' }, 'GET'],
        [
          'mark_read',
          { action: 'timeline', method: 'mark_read', entry: String(t.bob.ownEntries[1]) },
          'POST',
        ],
        ['save', { action: 'timeline', method: 'save', entry: String(t.bob.ownEntries[1]) }, 'POST'],
        ['follow list', { action: 'follow' }, 'GET'],
        ['follow', { action: 'follow', url: t.ann.ownFeed.url }, 'POST'],
        ['unfollow', { action: 'unfollow', url: t.shared.url }, 'POST'],
        ['mute list', { action: 'mute' }, 'GET'],
        ['unmute', { action: 'unmute', url: 'https://bobonly.example/muted' }, 'POST'],
        ['search', { action: 'search', query: 'BOBONLY' }, 'GET'],
        ['rename', { action: 'channels', name: 'Mine now' }, 'POST'],
        ['delete', { action: 'channels', method: 'delete' }, 'POST'],
      ];
      for (const [what, params, method] of cases) {
        const call = (channel: string) =>
          method === 'GET' ? asAnn({ ...params, channel }) : postAsAnn({ ...params, channel });
        const foreign = clean(await call(t.bob.channel.uid), [t.bob.channel.uid]);
        assert.equal(foreign.status, 404, what);
        sameAsMissing(foreign, await call(MISSING_UID), [[t.bob.channel.uid, MISSING_UID]], what);
      }
      // ordering with bob's channel: not found, as with a channel that does not exist, and nothing moves
      const order = (channel: string) =>
        postAsAnn({ action: 'channels', method: 'order', channels: [channel, t.ann.channel.uid] });
      const foreignOrder = clean(await order(t.bob.channel.uid), [t.bob.channel.uid]);
      assert.equal(foreignOrder.status, 404);
      sameAsMissing(foreignOrder, await order(MISSING_UID), [[t.bob.channel.uid, MISSING_UID]], 'order');
      const listed = clean(await asAnn({ action: 'channels' }));
      assert.deepEqual(
        (listed.body['channels'] as { uid: string }[]).map((c) => c.uid),
        ['notifications', t.ann.channel.uid],
      );
    });

    it("answers another user's entries and feeds as missing ones, and changes nothing of theirs", async () => {
      const channel = t.ann.channel.uid;
      const bobEntry = String(t.bob.ownEntries[0]);
      for (const method of ['mark_read', 'mark_unread', 'remove', 'save', 'unsave']) {
        const call = (entry: string) => postAsAnn({ action: 'timeline', channel, method, entry });
        sameAsMissing(clean(await call(bobEntry)), await call(MISSING_ID), [[bobEntry, MISSING_ID]], method);
      }
      const upTo = (entry: string) =>
        postAsAnn({ action: 'timeline', channel, method: 'mark_read', last_read_entry: entry });
      sameAsMissing(
        clean(await upTo(bobEntry)),
        await upTo(MISSING_ID),
        [[bobEntry, MISSING_ID]],
        'last_read_entry',
      );
      const bobFeed = String(t.bob.ownFeed.id);
      const source = (value: string) => asAnn({ action: 'timeline', channel, source: value });
      const foreign = clean(await source(bobFeed));
      assert.equal(foreign.status, 404);
      sameAsMissing(foreign, await source(MISSING_ID), [[bobFeed, MISSING_ID]], 'source');
      const missingUrl = t.h.url('/no-such-feed.xml');
      sameAsMissing(
        clean(await source(t.bob.ownFeed.url), [t.bob.ownFeed.url]),
        await source(missingUrl),
        [[t.bob.ownFeed.url, missingUrl]],
        'source URL',
      );
      const unfollow = (url: string) => postAsAnn({ action: 'unfollow', channel, url });
      sameAsMissing(
        clean(await unfollow(t.bob.ownFeed.url), [t.bob.ownFeed.url]),
        await unfollow(missingUrl),
        [[t.bob.ownFeed.url, missingUrl]],
        'unfollow',
      );
    });

    it("finds nothing of another user's in search, in entries or feeds", async () => {
      for (const params of [
        { query: 'BOBONLY', channel: 'global' },
        { query: 'BOBONLY', channel: t.ann.channel.uid },
        { query: 'BOBONLY' },
        { query: 'bobonly-feed' },
        { query: 'title for shared' },
      ]) {
        const answer = clean(await asAnn({ action: 'search', ...params }));
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body['items'] ?? answer.body['results'], [], JSON.stringify(params));
      }
      const shared = clean(await asAnn({ action: 'search', query: 'Shared' }));
      assert.deepEqual(
        (shared.body['results'] as { url: string; name: string }[]).map((r) => [r.url, r.name]),
        [[t.shared.url, 'Shared Feed']],
        "a feed the user follows, by its name to them, not bob's",
      );
    });

    it("keeps each user's rules: another's are neither listed nor lifted", async () => {
      for (const action of ['mute', 'block']) {
        const global = clean(await asAnn({ action, channel: 'global' }));
        assert.deepEqual(global.body['items'], []);
      }
      const lifted = clean(await postAsAnn({ action: 'unblock', url: 'https://bobonly.example/blocked' }));
      assert.equal(lifted.status, 200);
      assert.equal((await t.bob.store.filters.list('block')).length, 1);
    });

    it("marks a shared feed's entries for the user only", async () => {
      const s1 = String(t.shared.entries[0]);
      const channel = t.ann.channel.uid;
      assert.equal(
        (await postAsAnn({ action: 'timeline', channel, method: 'mark_read', entry: s1 })).status,
        200,
      );
      assert.equal(
        (await postAsAnn({ action: 'timeline', channel, method: 'mark_unread', entry: s1 })).status,
        200,
      );
      assert.equal(
        (await postAsAnn({ action: 'timeline', channel, method: 'unsave', entry: s1 })).status,
        200,
      );
      // bob's save of s1 and his unread s1 stay (checked again in `after`)
      assert.ok((await t.bob.store.sync.ids({ savedOnly: true })).includes(Number(s1)));
    });

    it('acts as the user whose me an IndieAuth token names, and refuses a me that is nobody', async () => {
      const bob = await t.h.get({ action: 'channels' }, 'bob-indie');
      assert.equal(bob.status, 200);
      assert.deepEqual(
        (bob.body['channels'] as { uid: string }[]).map((c) => c.uid),
        ['notifications', t.bob.channel.uid],
      );
      assert.equal((await t.h.get({ action: 'channels' }, 'stranger-indie')).status, 401);
      // --me names the one user of a one-user instance only: here there are two
      assert.equal((await t.h.get({ action: 'channels' }, 'owner-indie')).status, 401);
    });

    describe('event streams', () => {
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

      async function open(token: string) {
        const abort = new AbortController();
        const response = await fetch(`${base}/microsub?action=events`, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        assert.equal(response.status, 200);
        const next = sseReader(response.body as ReadableStream<Uint8Array>);
        await next();
        return { abort, next };
      }

      /**
       * The events read until one names the channel `uid`, that one included, failing at once on one
       * that holds anything of bob's (when `clean`), and after 5 s without an event.
       */
      async function until(next: () => Promise<SseEvent>, uid: string, clean = true): Promise<SseEvent[]> {
        const read: SseEvent[] = [];
        for (;;) {
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no event naming ${uid} within 5 s`)), 5_000);
          });
          const event = await Promise.race([next(), late]).finally(() => clearTimeout(timer));
          if (clean)
            assert.equal(leakIn(t, event.data), undefined, `ann's stream heard ${event.event} ${event.data}`);
          read.push(event);
          if (event.event && event.data.includes(uid)) return read;
        }
      }

      it("never sends a user another user's changes or new entries", { timeout: 30_000 }, async () => {
        const ann = await open(t.ann.token);
        const bob = await open(t.bob.token);
        try {
          const bobStore = t.bob.store;
          const now = () => t.h.clock.now().toISOString();
          // bob reads, makes a channel and follows in it, and his feed brings a new entry
          await bobStore.reading.markRead(t.bob.channel.id, t.bob.ownEntries, true, now());
          await bobStore.reading.markRead(t.bob.channel.id, t.bob.ownEntries, false, now());
          const made = await t.h.post({ action: 'channels', name: 'BOBONLY later' }, { token: t.bob.token });
          assert.equal(made.status, 200);
          const body = t.h.docs['/bobonly-feed.xml']?.body ?? '';
          t.h.docs['/bobonly-feed.xml'] = {
            body: body.replace(
              '</channel>',
              '<item><guid>BOBONLY-new</guid><title>BOBONLY entry new</title></item></channel>',
            ),
            type: 'application/rss+xml',
          };
          await t.h.poll(t.bob.ownFeed.url);
          // bob hears his new entry: the stream would show it, were it sent to ann
          const heard = await until(bob.next, 'BOBONLY entry new', false);
          assert.equal(heard.at(-1)?.event, 'new-item');
          // then ann's own change, which her stream must announce after whatever came before it
          await t.h.post(
            {
              action: 'timeline',
              channel: t.ann.channel.uid,
              method: 'mark_read',
              entry: String(t.ann.ownEntries[0]),
            },
            { token: t.ann.token },
          );
          const events = await until(ann.next, t.ann.channel.uid);
          assert.deepEqual(
            events.filter((e) => e.event).map((e) => e.event),
            ['change-channel'],
            'nothing but her own change',
          );
          await t.h.post(
            {
              action: 'timeline',
              channel: t.ann.channel.uid,
              method: 'mark_unread',
              entry: String(t.ann.ownEntries[0]),
            },
            { token: t.ann.token },
          );
          await until(ann.next, t.ann.channel.uid);
          // a new entry of the shared feed reaches both, each in their own channel
          const shared = t.h.docs['/shared-feed.xml']?.body ?? '';
          t.h.docs['/shared-feed.xml'] = {
            body: shared.replace(
              '</channel>',
              '<item><guid>Shared-new</guid><title>Shared new</title></item></channel>',
            ),
            type: 'application/rss+xml',
          };
          await t.h.poll(t.shared.url);
          const annItem = JSON.parse((await until(ann.next, 'Shared new')).at(-1)?.data ?? '') as {
            channel: string;
          };
          const bobItem = JSON.parse((await until(bob.next, 'Shared new', false)).at(-1)?.data ?? '') as {
            channel: string;
          };
          assert.equal(annItem.channel, t.ann.channel.uid);
          assert.equal(bobItem.channel, t.bob.channel.uid);
        } finally {
          ann.abort.abort();
          bob.abort.abort();
          // bob's state as of now is what `after` compares with: the stream test changed it on purpose
          bobBefore = await stateOf(t.bob.store);
        }
      });
    });
  });

  describe(`microsub IndieAuth with serve --me on a one-user instance (${backend.name})`, {
    skip: backend.skip,
  }, () => {
    it("acts as the one user for --me's tokens, whatever their me, and as nobody for another me", async () => {
      const endpoint = await startServer({
        '/token': (req, res) => {
          const me =
            req.headers.authorization === 'Bearer owner-indie'
              ? 'https://owner.example'
              : 'https://x.example/';
          send(res, 200, JSON.stringify({ me, scope: 'read' }), { 'content-type': 'application/json' });
        },
      });
      const h = await openHarness(backend, {
        indieAuth: { tokenEndpoint: `${endpoint.url}/token`, me: 'https://owner.example/' },
      });
      try {
        const solo = await h.store.users.add(
          { name: 'solo', isAdmin: true, me: 'https://solo.example/' },
          h.clock.now().toISOString(),
        );
        const made = await h.store.forUser(solo.id).channels.create('Solo news');
        const answer = await h.get({ action: 'channels' }, 'owner-indie');
        assert.equal(answer.status, 200);
        assert.ok((answer.body['channels'] as { uid: string }[]).some((c) => c.uid === made.uid));
        assert.equal((await h.get({ action: 'channels' }, 'other-indie')).status, 401);
      } finally {
        await endpoint.close();
        await h.close();
        await backend.cleanup();
      }
    });
  });
}
