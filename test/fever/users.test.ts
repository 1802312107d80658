// The Fever API with two users (issue 24): the api_key (md5 of "NAME:password") alone names the user,
// found among the users whose stored key is in its bucket; every answer is that user's, and marking
// another user's item, feed or group changes nothing and answers as for a missing id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_FEVER_KEY_SETTING,
  FEVER_KEY_BUCKET_SETTING,
  feverKey,
  setApiPassword,
} from '../../src/auth/api-credentials.js';
import { storeBackends } from '../helpers/temp-store.js';
import {
  feverLeak,
  leakIn,
  openTwoUsers,
  sameAsMissing,
  stateOf,
  type TwoUsers,
} from '../helpers/two-users.js';

type Body = Record<string, unknown>;
const MISSING_ID = '987654321';

for (const backend of storeBackends()) {
  describe(`fever with two users (${backend.name})`, { skip: backend.skip }, () => {
    let t: TwoUsers;
    let bobBefore: unknown;

    before(async () => {
      t = await openTwoUsers(backend);
      bobBefore = await stateOf(t.bob.store);
    });

    after(async () => {
      assert.deepEqual(await stateOf(t.bob.store), bobBefore);
      await t.h.close();
      await backend.cleanup();
    });

    /** POST /api/fever?api&<query> with the key in the form, as Reeder sends it. */
    async function fever(key: string, query: string): Promise<Body> {
      const res = await t.h.app.request(`/api/fever?api&${query}`, {
        method: 'POST',
        body: new URLSearchParams({ api_key: key }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Body;
    }

    /** ann's answer, checked to hold nothing of bob's. */
    async function asAnn(query: string): Promise<Body> {
      const body = await fever(t.ann.feverKey, query);
      assert.equal(body['auth'], 1);
      const leak = leakIn(t, JSON.stringify(body)) ?? feverLeak(t, body);
      assert.equal(leak, undefined, `${query}: bob's ${leak} in ${JSON.stringify(body).slice(0, 400)}`);
      return body;
    }

    const idsOf = (list: unknown) =>
      String(list)
        .split(',')
        .filter((id) => id !== '')
        .map(Number);

    it("answers each key with its user's groups and feeds", async () => {
      const ann = await asAnn('groups&feeds');
      assert.deepEqual(ann['groups'], [{ id: t.ann.channel.id, title: 'Ann Channel' }]);
      assert.deepEqual(
        (ann['feeds'] as { id: number; title: string }[]).map((f) => [f.id, f.title]),
        [
          [t.ann.ownFeed.id, 'Ann Daily'],
          [t.shared.id, 'Shared Feed'],
        ],
      );
      const bob = await fever(t.bob.feverKey, 'groups&feeds');
      assert.deepEqual(bob['groups'], [{ id: t.bob.channel.id, title: 'BOBONLY Channel' }]);
      assert.deepEqual(
        (bob['feeds'] as { id: number; title: string }[]).map((f) => [f.id, f.title]),
        [
          [t.bob.ownFeed.id, 'BOBONLY Feed'],
          [t.shared.id, 'BOBONLY title for shared'],
        ],
      );
    });

    it("gives the user's own items, unread and saved ids, and favicons", async () => {
      const items = (await asAnn('items&since_id=0'))['items'] as {
        id: number;
        is_read: number;
        is_saved: number;
      }[];
      assert.deepEqual(
        items.map((item) => item.id),
        [...t.ann.ownEntries, ...t.shared.entries].sort((a, b) => a - b),
      );
      const [s1, s2, s3, s4] = t.shared.entries;
      const byId = new Map(items.map((item) => [item.id, item]));
      assert.equal(byId.get(s1 as number)?.is_saved, 0, "bob's save is his");
      assert.equal(byId.get(s2 as number)?.is_read, 0, "bob's read is his");
      assert.equal(byId.get(s3 as number)?.is_read, 1);
      assert.deepEqual(idsOf((await asAnn('saved_item_ids'))['saved_item_ids']), [s4]);
      assert.equal(idsOf((await asAnn('unread_item_ids'))['unread_item_ids']).length, 6);
      const favicons = (await asAnn('favicons'))['favicons'] as { id: number }[];
      assert.deepEqual(
        favicons.map((f) => f.id),
        [t.ann.ownFeed.id, t.shared.id],
      );
      const asked = await asAnn(`items&with_ids=${t.bob.ownEntries.join(',')}`);
      assert.deepEqual(asked['items'], []);
    });

    it("marks another user's item, feed or group as it marks a missing one: nothing changes", async () => {
      const cases: [string, string][] = [
        ...['read', 'unread', 'saved', 'unsaved'].map(
          (as) => [`mark=item&as=${as}&id=`, String(t.bob.ownEntries[1])] as [string, string],
        ),
        ['mark=feed&as=read&id=', String(t.bob.ownFeed.id)],
        ['mark=group&as=read&id=', String(t.bob.channel.id)],
      ];
      for (const [query, foreign] of cases) {
        const a = { status: 200, body: await asAnn(`${query}${foreign}`) };
        const b = { status: 200, body: await asAnn(`${query}${MISSING_ID}`) };
        sameAsMissing(a, b, [], query);
      }
    });

    it("marks a shared feed's entries for the user only", async () => {
      const s1 = t.shared.entries[0] as number;
      await asAnn(`mark=item&as=read&id=${s1}`);
      await asAnn(`mark=item&as=unsaved&id=${s1}`);
      await asAnn(`mark=feed&as=read&id=${t.shared.id}`);
      await asAnn(`mark=group&as=read&id=0`);
      assert.deepEqual(idsOf((await asAnn('unread_item_ids'))['unread_item_ids']), []);
      // bob's s1 stays saved and unread, as `after` checks with the rest of his state
    });

    it('finds a key only among the users of its bucket, and gives a key without one its bucket', async () => {
      const key = feverKey('bob', 'another bob password');
      await setApiPassword(t.bob.store, 'bob', 'another bob password', { N: 1024 });
      const bucket = await t.bob.store.accounts.getUserSetting(FEVER_KEY_BUCKET_SETTING);
      assert.match(bucket ?? '', /^[0-9a-f]$/);
      // in another bucket, bob's key is not checked against his stored key
      const other = bucket === '0' ? '1' : '0';
      await t.bob.store.accounts.setUserSetting(FEVER_KEY_BUCKET_SETTING, other);
      assert.equal((await fever(key, 'groups'))['auth'], 0);
      // a key stored without a bucket (before buckets) is checked, and gets its bucket
      await t.bob.store.accounts.deleteUserSetting(FEVER_KEY_BUCKET_SETTING);
      assert.equal((await fever(key, 'groups'))['auth'], 1);
      assert.equal(await t.bob.store.accounts.getUserSetting(FEVER_KEY_BUCKET_SETTING), bucket);
      // the old key is nobody's now
      assert.equal((await fever(t.bob.feverKey, 'groups'))['auth'], 0);
      await setApiPassword(t.bob.store, 'bob', t.bob.appPassword, { N: 1024 });
      assert.notEqual(await t.bob.store.accounts.getUserSetting(API_FEVER_KEY_SETTING), undefined);
      bobBefore = { ...(bobBefore as object), app: ((await stateOf(t.bob.store)) as { app: unknown }).app };
    });
  });
}
