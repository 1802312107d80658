// action=channels over HTTP: list with integer unread counts, create, rename, delete, order; the
// notifications channel; JSON bodies and indexed arrays. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

type ChannelJson = { uid: string; name: string; unread: unknown };

for (const backend of storeBackends()) {
  describe(`microsub channels (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;

    before(async () => {
      h = await openHarness(backend);
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    const list = async () => (await h.get({ action: 'channels' })).body['channels'] as ChannelJson[];

    it('lists notifications first, with an integer unread count', async () => {
      const channels = await list();
      assert.equal(channels[0]?.uid, 'notifications');
      assert.equal(channels[0]?.unread, 0);
      assert.equal(typeof channels[0]?.unread, 'number');
    });

    it('creates a channel and answers it', async () => {
      const created = await h.post({ action: 'channels', name: 'Blogs' });
      assert.equal(created.status, 200);
      assert.equal(created.body['name'], 'Blogs');
      assert.equal(typeof created.body['uid'], 'string');
      assert.deepEqual(
        (await list()).map((c) => c.name),
        ['Notifications', 'Blogs'],
      );
    });

    it('renames a channel with channel + name', async () => {
      const { body } = await h.post({ action: 'channels', name: 'Old name' });
      const uid = body['uid'] as string;
      const renamed = await h.post({ action: 'channels', channel: uid, name: 'New name' });
      assert.equal(renamed.status, 200);
      assert.deepEqual(renamed.body, { uid, name: 'New name', unread: 0 });
      assert.ok((await list()).some((c) => c.uid === uid && c.name === 'New name'));
    });

    it('refuses a name another channel has, whatever its case, and keeps both as they were', async () => {
      const { body } = await h.post({ action: 'channels', name: 'Podcasts' });
      const before = await list();
      const again = await h.post({ action: 'channels', name: 'podcasts' });
      assert.equal(again.status, 400);
      assert.equal(again.body['error'], 'invalid_request');
      assert.match(String(again.body['error_description']), /channel named Podcasts already/);
      const other = await h.post({ action: 'channels', name: 'Talks' });
      const renamed = await h.post({
        action: 'channels',
        channel: other.body['uid'] as string,
        name: 'PODCASTS',
      });
      assert.equal(renamed.status, 400);
      assert.deepEqual(
        (await list()).map((c) => c.name),
        [...before.map((c) => c.name), 'Talks'],
      );
      assert.ok((await list()).some((c) => c.uid === body['uid']));
    });

    it('refuses a name with a line break or another control character', async () => {
      const before = await list();
      for (const name of ['a\nb', 'tab\there', 'bell\u0007']) {
        const answer = await h.post({ action: 'channels', name });
        assert.equal(answer.status, 400, name);
        assert.match(String(answer.body['error_description']), /one line of printable characters/);
      }
      assert.deepEqual(await list(), before);
    });

    it('deletes a channel, but never notifications', async () => {
      const { body } = await h.post({ action: 'channels', name: 'Doomed' });
      const uid = body['uid'] as string;
      assert.equal((await h.post({ action: 'channels', channel: uid, method: 'delete' })).status, 200);
      assert.ok(!(await list()).some((c) => c.uid === uid));
      const refused = await h.post({ action: 'channels', channel: 'notifications', method: 'delete' });
      assert.equal(refused.status, 400);
      assert.equal(refused.body['error'], 'invalid_request');
      assert.equal((await h.post({ action: 'channels', channel: uid, method: 'delete' })).status, 404);
    });

    it('orders channels with channels[] and answers the new list (Together reads it)', async () => {
      const a = (await h.post({ action: 'channels', name: 'A' })).body['uid'] as string;
      const b = (await h.post({ action: 'channels', name: 'B' })).body['uid'] as string;
      const c = (await h.post({ action: 'channels', name: 'C' })).body['uid'] as string;
      const before = (await list()).map((ch) => ch.uid);
      const ordered = await h.post({ action: 'channels', method: 'order', channels: [b, a] });
      assert.equal(ordered.status, 200);
      const uids = (ordered.body['channels'] as ChannelJson[]).map((ch) => ch.uid);
      assert.equal(uids[0], 'notifications');
      // "Only the order of the channel IDs specified will be changed": A and B swap places, C stays last
      assert.deepEqual(
        uids,
        before.map((uid) => (uid === a ? b : uid === b ? a : uid)),
      );
      assert.equal(uids.at(-1), c);
      assert.equal(typeof (ordered.body['channels'] as ChannelJson[])[0]?.unread, 'number');
      // a uid that is no channel of the user's: not found, and nothing moves
      const refused = await h.post({ action: 'channels', method: 'order', channels: [a, 'no-such-uid'] });
      assert.equal(refused.status, 404);
      assert.deepEqual(
        (await list()).map((ch) => ch.uid),
        uids,
      );
    });

    it('takes indexed arrays, channels[0] and channels[1] (Indigenous), in index order', async () => {
      const a = (await h.post({ action: 'channels', name: 'X' })).body['uid'] as string;
      const b = (await h.post({ action: 'channels', name: 'Y' })).body['uid'] as string;
      const ordered = await h.post({
        action: 'channels',
        method: 'order',
        'channels[1]': a,
        'channels[0]': b,
      });
      // in index order, [Y, X]: the two swap places
      const uids = (ordered.body['channels'] as ChannelJson[]).map((c) => c.uid);
      assert.deepEqual(uids.slice(-2), [b, a]);
    });

    it('takes a JSON body, and a POST with its parameters in the query string (Together)', async () => {
      const json = await h.post({ action: 'channels', name: 'From JSON' }, { style: 'json' });
      assert.equal(json.body['name'], 'From JSON');
      const query = await h.post({ action: 'channels', name: 'From query' }, { style: 'query' });
      assert.equal(query.body['name'], 'From query');
    });

    it('counts unread entries per channel as integers', async () => {
      const uid = (await h.post({ action: 'channels', name: 'Counted' })).body['uid'] as string;
      h.docs['/counted.xml'] = {
        body: rss([item('c1', 1), item('c2', 2), item('c3', 3)]),
        type: 'application/rss+xml',
      };
      await h.post({ action: 'follow', channel: uid, url: h.url('/counted.xml') });
      const counted = (await list()).find((c) => c.uid === uid);
      assert.equal(counted?.unread, 3);
    });

    it('refuses what is not a channel request', async () => {
      assert.equal((await h.post({ action: 'channels' })).status, 400);
      assert.equal((await h.post({ action: 'channels', method: 'explode', channel: 'x' })).status, 400);
      assert.equal((await h.post({ action: 'channels', channel: 'no-such', name: 'x' })).status, 404);
      assert.equal((await h.post({ action: 'channels', name: 'x'.repeat(500) })).status, 400);
      assert.equal((await h.post({ action: 'channels', method: 'order' })).status, 400);
    });
  });
}
