// action=timeline over HTTP: a followed feed's entries appear at once; paging with before/after neither
// overlaps nor skips while entries arrive; read state, last_read_entry, mark_unread, remove; limit,
// source and is_read=false. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

type Item = { _id: string; uid: string; _is_read: boolean; _source: string; name?: string; type: string };
type Page = { items: Item[]; paging: { before?: string; after?: string } };

for (const backend of storeBackends()) {
  describe(`microsub timeline (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;

    before(async () => {
      h = await openHarness(backend);
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    /** A new channel following a new feed of `count` entries n0..n(count-1), n0 oldest. */
    async function channelWithFeed(name: string, count: number) {
      const uid = (await h.post({ action: 'channels', name })).body['uid'] as string;
      const path = `/${name}.xml`;
      const items = Array.from({ length: count }, (_, i) => item(`${name}-${i}`, i));
      h.docs[path] = { body: rss(items), type: 'application/rss+xml' };
      const followed = await h.post({ action: 'follow', channel: uid, url: h.url(path) });
      assert.equal(followed.status, 200, JSON.stringify(followed.body));
      return { uid, path, items, source: followed.body['_source'] as string };
    }

    const page = async (params: Record<string, string>) => {
      const answer = await h.get({ action: 'timeline', ...params });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body as unknown as Page;
    };
    const guids = (p: Page) => p.items.map((i) => i.uid);

    it("shows a followed feed's entries at once, newest first, as jf2 with string _id and _source", async () => {
      const { uid, source } = await channelWithFeed('first', 3);
      const p = await page({ channel: uid });
      assert.deepEqual(guids(p), ['first-2', 'first-1', 'first-0']);
      const top = p.items[0]!;
      assert.equal(top.type, 'entry');
      assert.equal(typeof top._id, 'string');
      assert.equal(top._source, source);
      assert.equal(typeof top._source, 'string');
      assert.equal(top._is_read, false);
      assert.ok(p.paging.before !== undefined);
      assert.equal(p.paging.after, undefined);
    });

    it('answers entries as they are now: changed content, a renamed feed and new read state show at once', async () => {
      const { uid, path, items, source } = await channelWithFeed('kept', 2);
      type Full = Item & { content?: { text?: string }; author?: { name?: string } };
      const top = async () => (await page({ channel: uid })).items[0] as Full;
      const first = await top();
      assert.equal(first.uid, 'kept-1');
      assert.equal(first.content?.text, 'Body of kept-1');
      assert.equal(first.author?.name, 'Test feed');
      assert.equal(first._is_read, false);
      // asked again, unchanged: the same item
      assert.deepEqual(await top(), first);
      const changed = items.map((i) => (i.guid === 'kept-1' ? { ...i, description: 'Edited body' } : i));
      h.docs[path] = { body: rss(changed), type: 'application/rss+xml' };
      await h.poll(h.url(path));
      assert.equal((await top()).content?.text, 'Edited body');
      await h.store.feeds.update(Number(source), { title: 'Renamed feed' });
      assert.equal((await top()).author?.name, 'Renamed feed');
      await h.post({ action: 'timeline', method: 'mark_read', channel: uid, entry: first._id });
      const read = await top();
      assert.equal(read._is_read, true);
      assert.equal(read.content?.text, 'Edited body');
    });

    it('pages with after and before, neither overlapping nor skipping while new entries arrive', async () => {
      const { uid, path, items } = await channelWithFeed('paged', 25);
      const first = await page({ channel: uid, limit: '10' });
      assert.deepEqual(
        guids(first),
        items
          .slice(15)
          .reverse()
          .map((i) => i.guid),
      );
      // five entries arrive between the requests
      const arrivals = Array.from({ length: 5 }, (_, i) => item(`paged-new-${i}`, 100 + i));
      h.docs[path] = { body: rss([...items, ...arrivals]), type: 'application/rss+xml' };
      await h.poll(h.url(path));
      const second = await page({ channel: uid, limit: '10', after: first.paging.after! });
      assert.deepEqual(
        guids(second),
        items
          .slice(5, 15)
          .reverse()
          .map((i) => i.guid),
      );
      const third = await page({ channel: uid, limit: '10', after: second.paging.after! });
      assert.deepEqual(
        guids(third),
        items
          .slice(0, 5)
          .reverse()
          .map((i) => i.guid),
      );
      assert.equal(third.paging.after, undefined, 'no after once no older entries remain');
      const newer = await page({ channel: uid, limit: '10', before: first.paging.before! });
      assert.deepEqual(new Set(guids(newer)), new Set(arrivals.map((i) => i.guid)));
      const seen = [...guids(newer), ...guids(first), ...guids(second), ...guids(third)];
      assert.equal(new Set(seen).size, 30, 'every entry exactly once');
    });

    it('marks entries read by entry and entry[], counting unread as it goes', async () => {
      const { uid } = await channelWithFeed('reading', 4);
      const ids = (await page({ channel: uid })).items.map((i) => i._id);
      assert.equal(
        (await h.post({ action: 'timeline', method: 'mark_read', channel: uid, entry: ids[0]! })).status,
        200,
      );
      assert.equal(
        (await h.post({ action: 'timeline', method: 'mark_read', channel: uid, entry: [ids[1]!, ids[2]!] }))
          .status,
        200,
      );
      const after = await page({ channel: uid });
      assert.deepEqual(
        after.items.map((i) => i._is_read),
        [true, true, true, false],
      );
      assert.equal(await unread(uid), 1);
      await h.post({ action: 'timeline', method: 'mark_unread', channel: uid, entry: ids[0]! });
      assert.equal(await unread(uid), 2);
    });

    it('marks an entry and everything older read with last_read_entry (Monocle\'s "mark all read")', async () => {
      const { uid } = await channelWithFeed('lastread', 5);
      const ids = (await page({ channel: uid })).items.map((i) => i._id);
      const marked = await h.post({
        action: 'timeline',
        method: 'mark_read',
        channel: uid,
        last_read_entry: ids[1]!,
      });
      assert.equal(marked.status, 200);
      const after = await page({ channel: uid });
      assert.deepEqual(
        after.items.map((i) => i._is_read),
        [false, true, true, true, true],
      );
      assert.equal(await unread(uid), 1);
      const refused = await h.post({
        action: 'timeline',
        method: 'mark_unread',
        channel: uid,
        last_read_entry: ids[1]!,
      });
      assert.equal(refused.status, 400);
    });

    it('shows only unread entries with is_read=false, one feed with source, and honours limit', async () => {
      const { uid } = await channelWithFeed('filtering', 3);
      const other = await channelWithFeed('filtering-other', 2);
      await h.post({ action: 'follow', channel: uid, url: h.url(other.path) });
      const all = await page({ channel: uid });
      assert.equal(all.items.length, 5);
      await h.post({ action: 'timeline', method: 'mark_read', channel: uid, entry: all.items[0]!._id });
      assert.equal((await page({ channel: uid, is_read: 'false' })).items.length, 4);
      const one = await page({ channel: uid, source: other.source });
      assert.deepEqual(guids(one).sort(), ['filtering-other-0', 'filtering-other-1']);
      // the page says which source it is (Aperture does; Monocle titles its one-feed view with it)
      const about = (one as unknown as { source?: Record<string, unknown> }).source;
      assert.equal(about?.['_id'], other.source);
      assert.equal(about?.['type'], 'feed');
      assert.equal(about?.['url'], h.url(other.path));
      assert.equal(typeof about?.['name'], 'string');
      assert.equal((all as unknown as { source?: unknown }).source, undefined);
      const limited = await page({ channel: uid, limit: '2' });
      assert.equal(limited.items.length, 2);
      assert.ok(limited.paging.after !== undefined);
    });

    it('removes entries from the channel', async () => {
      const { uid } = await channelWithFeed('removing', 3);
      const ids = (await page({ channel: uid })).items.map((i) => i._id);
      assert.equal(
        (await h.post({ action: 'timeline', method: 'remove', channel: uid, entry: ids[0]! })).status,
        200,
      );
      assert.deepEqual(
        (await page({ channel: uid })).items.map((i) => i._id),
        ids.slice(1),
      );
    });

    it('keeps read state per channel', async () => {
      const a = await channelWithFeed('shared', 2);
      const b = (await h.post({ action: 'channels', name: 'shared-b' })).body['uid'] as string;
      await h.post({ action: 'follow', channel: b, url: h.url(a.path) });
      const ids = (await page({ channel: a.uid })).items.map((i) => i._id);
      await h.post({ action: 'timeline', method: 'mark_read', channel: a.uid, entry: ids });
      assert.equal(await unread(a.uid), 0);
      assert.equal(await unread(b), 2);
    });

    it('answers bad requests with 400 and unknown channels or entries with 404, never 500', async () => {
      const { uid } = await channelWithFeed('errors', 1);
      // a feed the user follows in another channel is no source of this one
      const elsewhere = await channelWithFeed('elsewhere', 1);
      const cases: [Record<string, string>, number][] = [
        [{ channel: uid, source: elsewhere.source }, 404],
        [{ channel: uid, source: h.url(elsewhere.path) }, 404],
        [{ channel: uid, after: 'not-a-cursor' }, 400],
        [{ channel: uid, before: '!!' }, 400],
        [{ channel: uid, limit: 'ten' }, 400],
        [{ channel: uid, limit: '0' }, 400],
        [{ channel: uid, before: 'a', after: 'b' }, 400],
        [{}, 400],
        [{ channel: 'no-such-channel' }, 404],
        [{ channel: uid, source: '999999' }, 404],
      ];
      for (const [params, status] of cases) {
        const answer = await h.get({ action: 'timeline', ...params });
        assert.equal(answer.status, status, `${JSON.stringify(params)}: ${JSON.stringify(answer.body)}`);
        assert.equal(typeof answer.body['error'], 'string');
        assert.equal(typeof answer.body['error_description'], 'string');
      }
      const posts: [Record<string, string>, number][] = [
        [{ channel: uid, method: 'mark_read' }, 400],
        [{ channel: uid, method: 'mark_read', entry: 'abc' }, 400],
        [{ channel: uid, method: 'mark_read', entry: '99999999' }, 404],
        [{ channel: uid, method: 'mark_read', last_read_entry: '99999999' }, 404],
        [{ channel: uid, method: 'teleport', entry: '1' }, 400],
        [{ channel: uid }, 400],
      ];
      for (const [params, status] of posts) {
        const answer = await h.post({ action: 'timeline', ...params });
        assert.equal(answer.status, status, `${JSON.stringify(params)}: ${JSON.stringify(answer.body)}`);
      }
    });

    async function unread(uid: string): Promise<unknown> {
      const channels = (await h.get({ action: 'channels' })).body['channels'] as {
        uid: string;
        unread: unknown;
      }[];
      return channels.find((c) => c.uid === uid)?.unread;
    }
  });
}
