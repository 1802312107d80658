// The Google Reader API with two users (issue 24): ClientLogin names the user (their name in any case,
// or the app login name kept from before accounts), an unknown name is answered as a wrong password
// after a password check, and every call shows and changes only the signed-in user's data: another
// user's feeds, folders and items are answered as missing ones and stay as they were.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setApiPassword } from '../../src/auth/api-credentials.js';
import { Logins } from '../../src/auth/logins.js';
import { longItemId } from '../../src/greader/ids.js';
import { createApp } from '../../src/server/app.js';
import { storeBackends } from '../helpers/temp-store.js';
import { leakIn, openTwoUsers, sameAsMissing, stateOf, type TwoUsers } from '../helpers/two-users.js';
import { type GReaderClient, type Json, signIn } from './harness.js';

const MISSING_ID = '987654321';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

for (const backend of storeBackends()) {
  describe(`google reader with two users (${backend.name})`, { skip: backend.skip }, () => {
    let t: TwoUsers;
    let ann: GReaderClient;
    let bob: GReaderClient;
    let bobBefore: unknown;

    before(async () => {
      t = await openTwoUsers(backend);
      ann = await signIn(t.h, '/api/greader', { email: 'ann', password: t.ann.appPassword });
      bob = await signIn(t.h, '/api/greader', { email: 'Bob', password: t.bob.appPassword });
      bobBefore = await stateOf(t.bob.store);
    });

    after(async () => {
      assert.deepEqual(await stateOf(t.bob.store), bobBefore);
      await t.h.close();
      await backend.cleanup();
    });

    /** An answer of ann's client, checked to hold nothing of bob's but what was sent. */
    async function asAnn(
      path: string,
      form?: Record<string, string | string[]>,
      sent: readonly string[] = [],
    ): Promise<{ status: number; body: string }> {
      const res = form === undefined ? await ann.get(path) : await ann.post(path, form);
      const body = await res.text();
      const leak = leakIn(t, body, sent);
      assert.equal(leak, undefined, `${path}: bob's ${leak} in ${body.slice(0, 400)}`);
      return { status: res.status, body };
    }

    async function jsonAsAnn(path: string): Promise<Json> {
      const answer = await asAnn(path);
      assert.equal(answer.status, 200, `${path}: ${answer.body}`);
      return JSON.parse(answer.body) as Json;
    }

    it('signs each user in by their name in any case, and tells them who they are', async () => {
      assert.deepEqual((await bob.json('user-info'))['userName'], 'bob');
      assert.equal((await bob.json('user-info'))['userId'], String(t.bob.id));
      assert.equal((await jsonAsAnn('user-info'))['userId'], String(t.ann.id));
      const bobs = (await bob.json('subscription/list'))['subscriptions'] as { id: string }[];
      assert.ok(bobs.some((s) => s.id === `feed/${t.bob.ownFeed.id}`));
    });

    it('signs a user in by the app login name kept from before accounts, and by their name', async () => {
      const annStore = t.ann.store;
      await setApiPassword(annStore, 'ann@example.com', t.ann.appPassword, { N: 1024 });
      try {
        for (const email of ['ann@example.com', 'ANN@example.com', 'ann']) {
          const client = await signIn(t.h, '/api/greader', { email, password: t.ann.appPassword });
          assert.equal((await client.json('user-info'))['userId'], String(t.ann.id), email);
        }
      } finally {
        await setApiPassword(annStore, 'ann', t.ann.appPassword, { N: 1024 });
        ann = await signIn(t.h, '/api/greader', { email: 'ann', password: t.ann.appPassword });
      }
    });

    it('answers an unknown name as a wrong password, after a password check as well', async () => {
      const logins = new Logins({ maxFailures: 100 });
      const app = createApp({ ...t.h.deps, logins });
      const login = async (email: string, password: string) => {
        const before = logins.checks.started;
        const res = await app.request('/api/greader/accounts/ClientLogin', {
          method: 'POST',
          body: new URLSearchParams({ Email: email, Passwd: password }),
          headers: FORM,
        });
        return { status: res.status, body: await res.text(), checks: logins.checks.started - before };
      };
      await t.h.store.users.add({ name: 'carol', isAdmin: false }, t.h.clock.now().toISOString());
      const wrong = await login('bob', 'not his password');
      const unknown = await login('nobody', 'not his password');
      const noPassword = await login('carol', 'not his password');
      assert.deepEqual(wrong, { status: 401, body: 'Error=BadAuthentication\n', checks: 1 });
      assert.deepEqual(unknown, wrong);
      assert.deepEqual(noPassword, wrong);
      // another user's password under one's own name signs nobody in
      assert.deepEqual(await login('ann', t.bob.appPassword), wrong);
    });

    it("lists the user's own subscriptions, folders and counts, with icons of their own feeds", async () => {
      const subscriptions = (await jsonAsAnn('subscription/list'))['subscriptions'] as {
        id: string;
        title: string;
        iconUrl: string;
      }[];
      assert.deepEqual(
        subscriptions.map((s) => [s.id, s.title]),
        [
          [`feed/${t.ann.ownFeed.id}`, 'Ann Daily'],
          [`feed/${t.shared.id}`, 'Shared Feed'],
        ],
      );
      assert.ok(subscriptions.every((s) => s.iconUrl.includes('/feed-icons/')));
      const tags = (await jsonAsAnn('tag/list'))['tags'] as { id: string }[];
      assert.deepEqual(
        tags.map((tag) => tag.id),
        ['user/-/state/com.google/starred', 'user/-/label/Ann Channel'],
      );
      const counts = (await jsonAsAnn('unread-count'))['unreadcounts'] as { id: string; count: number }[];
      const byId = new Map(counts.map((c) => [c.id, c.count]));
      assert.equal(byId.get(`feed/${t.ann.ownFeed.id}`), 3);
      assert.equal(byId.get(`feed/${t.shared.id}`), 3, "one shared entry read by her, bob's read is his");
      assert.equal(byId.has(`feed/${t.bob.ownFeed.id}`), false);
    });

    it("streams the user's entries only, with their own read and starred state", async () => {
      const ids = (await jsonAsAnn('stream/items/ids?n=1000'))['itemRefs'] as { id: string }[];
      assert.deepEqual(
        ids.map((ref) => Number(ref.id)).sort((a, b) => a - b),
        [...t.ann.ownEntries, ...t.shared.entries].sort((a, b) => a - b),
      );
      const starred = (await jsonAsAnn('stream/items/ids?s=user/-/state/com.google/starred'))['itemRefs'] as {
        id: string;
      }[];
      assert.deepEqual(
        starred.map((ref) => Number(ref.id)),
        [t.shared.entries[3]],
      );
      const contents = await jsonAsAnn('stream/contents?n=100');
      assert.equal((contents['items'] as unknown[]).length, 7);
      const atom = await asAnn('../../atom/user%2F-%2Fstate%2Fcom.google%2Freading-list?n=100');
      assert.equal(atom.status, 200);
      // bob's items asked by id give nothing
      const items = await asAnn('stream/items/contents', {
        i: t.bob.ownEntries.flatMap((id) => [String(id), longItemId(id)]),
      });
      assert.deepEqual((JSON.parse(items.body) as Json)['items'], []);
    });

    it("answers another user's feed and folder as missing ones, in every call that names one", async () => {
      const bobFeed = `feed/${t.bob.ownFeed.id}`;
      const missingFeed = `feed/${MISSING_ID}`;
      const bobUrl = `feed/${t.bob.ownFeed.url}`;
      const missingUrl = `feed/${t.h.url('/no-such-feed.xml')}`;
      const bobLabel = `user/-/label/${t.bob.channel.name}`;
      const missingLabel = 'user/-/label/No such folder';
      const named = [
        [bobFeed, missingFeed],
        [bobUrl, missingUrl],
        [bobLabel, missingLabel],
      ] as const;
      // what the request sent comes back in stream ids, messages and the Atom self link, encoded or not
      const pairs = [
        ...named,
        ...named.map(([a, b]) => [encodeURIComponent(a), encodeURIComponent(b)] as const),
        [t.bob.channel.name, 'No such folder'] as const,
      ];
      const sent = pairs.map(([foreign]) => foreign);
      const calls: [string, (id: string) => Promise<{ status: number; body: string }>][] = [
        ['stream/contents', (s) => asAnn(`stream/contents?s=${encodeURIComponent(s)}`, undefined, sent)],
        ['stream/contents path', (s) => asAnn(`stream/contents/${encodeURIComponent(s)}`, undefined, sent)],
        ['stream/items/ids', (s) => asAnn(`stream/items/ids?s=${encodeURIComponent(s)}`, undefined, sent)],
        ['atom', (s) => asAnn(`../../atom/${encodeURIComponent(s)}`, undefined, sent)],
        ['mark-all-as-read', (s) => asAnn('mark-all-as-read', { s }, sent)],
        ['unsubscribe', (s) => asAnn('subscription/edit', { ac: 'unsubscribe', s }, sent)],
        [
          'edit',
          (s) => asAnn('subscription/edit', { ac: 'edit', s, t: 'Mine', a: 'user/-/label/Taken' }, sent),
        ],
        ['disable-tag', (s) => asAnn('disable-tag', { s }, sent)],
        ['rename-tag', (s) => asAnn('rename-tag', { s, dest: 'Mine now' }, sent)],
      ];
      for (const [what, call] of calls)
        for (const [foreign, missing] of named) {
          const a = await call(foreign);
          const b = await call(missing);
          sameAsMissing(a, b, pairs, `${what} ${foreign}`);
        }
      // following by id needs the id of one of the user's feeds; by URL any feed may be followed
      const subscribe = (s: string) => asAnn('subscription/edit', { ac: 'subscribe', s }, sent);
      sameAsMissing(await subscribe(bobFeed), await subscribe(missingFeed), pairs, 'subscribe by id');
      assert.equal((await subscribe(bobFeed)).status, 404);
    });

    it("changes nothing of another user's with edit-tag and mark-all-as-read", async () => {
      const ids = t.bob.ownEntries.map(longItemId);
      for (const tag of ['user/-/state/com.google/read', 'user/-/state/com.google/starred'])
        for (const key of ['a', 'r']) {
          const answer = await asAnn('edit-tag', { i: ids, [key]: tag });
          assert.deepEqual(answer, { status: 200, body: 'OK' });
        }
      // a shared entry bob saved and left unread: ann's changes are hers
      const s1 = longItemId(t.shared.entries[0] as number);
      await asAnn('edit-tag', { i: s1, a: 'user/-/state/com.google/read' });
      await asAnn('edit-tag', { i: s1, r: 'user/-/state/com.google/starred' });
      await asAnn('mark-all-as-read', { s: 'user/-/state/com.google/reading-list' });
      await asAnn('mark-all-as-read', { s: `feed/${t.shared.id}` });
      const counts = (await jsonAsAnn('unread-count'))['unreadcounts'] as { count: number }[];
      assert.ok(counts.length > 0, 'every feed and folder of ann is listed, with 0');
      assert.deepEqual(
        counts.filter((c) => c.count !== 0),
        [],
      );
      // bob's state, compared in `after`, is as it was
    });

    it('signs every app of the user out when their app password changes, and only theirs', async () => {
      await setApiPassword(t.bob.store, 'bob', 'a new bob password', { N: 1024 });
      assert.equal((await bob.get('user-info')).status, 401);
      assert.equal((await ann.get('user-info')).status, 200);
      await setApiPassword(t.bob.store, 'bob', t.bob.appPassword, { N: 1024 });
      // the hashes are new: compare bob's state without them
      bobBefore = { ...(bobBefore as object), app: ((await stateOf(t.bob.store)) as { app: unknown }).app };
    });
  });
}
