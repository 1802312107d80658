// New, changed and unchanged entries; identity rules; redirects and validators; hooks. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

for (const backend of storeBackends()) {
  describe(`poll entries (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    const clock = testClock();
    const docs: Record<string, string> = {};
    const headers: Record<string, Record<string, string>> = {};

    before(async () => {
      server = await startServer({
        '/feed': (req, res) => {
          const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name') ?? '';
          send(res, 200, docs[name] ?? '', { 'content-type': 'application/rss+xml', ...headers[name] });
        },
        '/old': (_req, res) => send(res, 301, '', { location: '/feed?name=moved' }),
        '/temp': (_req, res) => send(res, 302, '', { location: '/feed?name=temp' }),
      });
      store = await backend.open();
    });

    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    async function poll(path: string, hooks = {}) {
      const url = `${server.url}${path}`;
      const feed =
        (await store.feeds.findByUrl(url)) ?? (await addFollowedFeed(store, url, clock.now().toISOString()));
      await pollOnce(pollDeps(store, clock, { hooks }), { feedIds: [feed.id], force: true });
      clock.advance(60_000);
      const after = (await store.feeds.get(feed.id))!;
      return {
        feed: after,
        entries: await store.entries.listByFeed(feed.id, 100),
        heartbeat: (await store.heartbeats.list(feed.id, 1))[0]!,
      };
    }

    it("reads no stored entries on a feed's first read, and on every read after", async () => {
      docs['first'] = rss([
        { guid: 'f1', title: 'One', pubDate: 'Mon, 02 Feb 2026 10:00:00 GMT' },
        { guid: 'f2', title: 'Two', pubDate: 'Mon, 02 Feb 2026 11:00:00 GMT' },
      ]);
      let lookups = 0;
      const entries = new Proxy(store.entries, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (name === 'hashes') lookups++;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const counted = new Proxy(store, {
        get(target, name, receiver) {
          if (name === 'entries') return entries;
          const value = Reflect.get(target, name, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const url = `${server.url}/feed?name=first`;
      const feed = await addFollowedFeed(store, url, clock.now().toISOString());
      const pollCounted = async () => {
        await pollOnce(pollDeps(counted, clock), { feedIds: [feed.id], force: true });
        clock.advance(60_000);
        return (await store.heartbeats.list(feed.id, 1))[0]!;
      };
      const first = await pollCounted();
      assert.deepEqual([lookups, first.newCount], [0, 2]);
      const second = await pollCounted();
      assert.deepEqual([lookups, second.newCount], [1, 0], 'the second read finds both stored');
      assert.equal((await store.entries.listByFeed(feed.id, 10)).length, 2);
    });

    it('inserts new entries, updates changed ones keeping first-seen and published, skips the unchanged', async () => {
      docs['a'] = rss([
        { guid: '1', title: 'One', pubDate: 'Mon, 02 Feb 2026 10:00:00 GMT', description: 'first' },
        { guid: '2', title: 'Two', pubDate: 'Mon, 02 Feb 2026 11:00:00 GMT' },
      ]);
      const first = await poll('/feed?name=a');
      const one = first.entries.find((e) => e.guid === '1')!;
      docs['a'] = rss([
        { guid: '1', title: 'One (edited)', pubDate: 'Mon, 02 Feb 2026 10:00:00 GMT', description: 'first' },
        { guid: '2', title: 'Two', pubDate: 'Mon, 02 Feb 2026 11:00:00 GMT' },
        { guid: '3', title: 'Three', pubDate: 'Mon, 02 Feb 2026 12:00:00 GMT' },
      ]);
      const second = await poll('/feed?name=a');
      assert.deepEqual([second.heartbeat.newCount, second.heartbeat.updatedCount], [1, 1]);
      const edited = second.entries.find((e) => e.guid === '1')!;
      assert.equal(edited.title, 'One (edited)');
      assert.equal(edited.firstSeenAt, one.firstSeenAt);
      assert.equal(edited.published, '2026-02-02T10:00:00.000Z');
      assert.notEqual(edited.changedAt, one.changedAt);
    });

    it('keeps an entry that disappears from the feed', async () => {
      docs['a'] = rss([{ guid: '3', title: 'Three', pubDate: 'Mon, 02 Feb 2026 12:00:00 GMT' }]);
      const { entries } = await poll('/feed?name=a');
      assert.deepEqual(entries.map((e) => e.guid).sort(), ['1', '2', '3']);
    });

    it('gives dateless entries stable ids (link, else a content hash) and never brings them back as new', async () => {
      docs['nodate'] = rss([
        { title: 'Linked', link: 'https://example.com/linked' },
        { title: 'Bare', description: 'words' },
      ]);
      const first = await poll('/feed?name=nodate');
      assert.equal(first.heartbeat.newCount, 2);
      assert.ok(first.entries.some((e) => e.guid === 'https://example.com/linked'));
      assert.ok(first.entries.every((e) => e.sortAt === e.firstSeenAt));
      const again = await poll('/feed?name=nodate');
      assert.deepEqual(
        [again.heartbeat.newCount, again.heartbeat.updatedCount, again.entries.length],
        [0, 0, 2],
      );
    });

    it('stores both of two different entries that share one guid, and says so', async () => {
      docs['dup'] = rss([
        { guid: 'same', title: 'A', link: 'https://example.com/a' },
        { guid: 'same', title: 'B', link: 'https://example.com/b' },
      ]);
      const { entries, feed } = await poll('/feed?name=dup');
      assert.equal(entries.length, 2);
      assert.ok(feed.diagnostics.some((d) => d.code === 'entry.guid.duplicate' && d.entry === 1));
      // the two swap places: each keeps its row, nothing is new, changed or lost
      const rows = new Map(entries.map((e) => [e.id, e.title]));
      docs['dup'] = rss([
        { guid: 'same', title: 'B', link: 'https://example.com/b' },
        { guid: 'same', title: 'A', link: 'https://example.com/a' },
      ]);
      const swapped = await poll('/feed?name=dup');
      assert.deepEqual([swapped.heartbeat.newCount, swapped.heartbeat.updatedCount], [0, 0]);
      assert.deepEqual(new Map(swapped.entries.map((e) => [e.id, e.title])), rows);
      // and when the one stored under the bare guid changes after the swap, that row is the one updated
      docs['dup'] = rss([
        { guid: 'same', title: 'B', link: 'https://example.com/b' },
        { guid: 'same', title: 'A', link: 'https://example.com/a', description: 'now with words' },
      ]);
      const edited = await poll('/feed?name=dup');
      assert.deepEqual([edited.heartbeat.newCount, edited.heartbeat.updatedCount], [0, 1]);
      assert.deepEqual(edited.entries.map((e) => e.title).sort(), ['A', 'B']);
      assert.equal(
        edited.entries.find((e) => e.title === 'A')?.id,
        [...rows].find(([, t]) => t === 'A')?.[0],
      );
    });

    it('matches entries by link when a feed changes its guids on every fetch', async () => {
      docs['unstable'] = rss([{ guid: 'r1-1', title: 'Post', link: 'http://example.com/p?utm_source=feed' }]);
      await poll('/feed?name=unstable');
      docs['unstable'] = rss([{ guid: 'r2-1', title: 'Post', link: 'https://example.com/p?utm_source=rss' }]);
      const { entries, feed, heartbeat } = await poll('/feed?name=unstable');
      assert.equal(entries.length, 1);
      assert.equal(heartbeat.newCount, 0);
      assert.ok(feed.diagnostics.some((d) => d.code === 'entry.guid.unstable'));
    });

    it('keeps a far-future date as written but places the entry by when it was seen', async () => {
      docs['future'] = rss([{ guid: 'f', title: 'Future', pubDate: 'Fri, 01 Jan 2100 00:00:00 GMT' }]);
      const { entries, feed } = await poll('/feed?name=future');
      assert.equal(entries[0]?.published, '2100-01-01T00:00:00.000Z');
      assert.equal(entries[0]?.sortAt, entries[0]?.firstSeenAt);
      assert.ok(feed.diagnostics.some((d) => d.code === 'date.future'));
    });

    it('follows a 301 to the new URL next time and adopts it once it works; a 302 changes nothing', async () => {
      docs['moved'] = rss([{ guid: 'm', title: 'Moved' }]);
      const first = await poll('/old');
      assert.equal(first.feed.pendingMoveUrl, `${server.url}/feed?name=moved`);
      const second = await poll('/old');
      assert.equal(second.feed.url, `${server.url}/feed?name=moved`);
      assert.equal(second.feed.originalUrl, `${server.url}/old`);
      assert.equal(server.requests.at(-1)?.path, '/feed?name=moved');
      docs['temp'] = rss([{ guid: 't', title: 'Temp' }]);
      const temp = await poll('/temp');
      assert.equal(temp.feed.url, `${server.url}/temp`);
      assert.equal(temp.feed.pendingMoveUrl, undefined);
    });

    it('stops trusting a server whose ETag stays the same while the document changes', async () => {
      docs['liar'] = rss([{ guid: 'x', title: 'X' }]);
      headers['liar'] = { etag: '"forever"' };
      await poll('/feed?name=liar');
      docs['liar'] = rss([{ guid: 'y', title: 'Y' }]);
      clock.advance(30 * 3600_000); // past the daily unconditional check
      const { feed, heartbeat } = await poll('/feed?name=liar');
      assert.equal(heartbeat.newCount, 1);
      assert.equal(feed.trustsValidators, false);
      assert.ok(feed.diagnostics.some((d) => d.code === 'feed.validators-unreliable'));
      await poll('/feed?name=liar');
      assert.equal(server.requests.at(-1)?.headers['if-none-match'], undefined);
    });

    it('passes every new entry through the hooks, which may change or drop it', async () => {
      docs['hooked'] = rss([
        { guid: 'keep', title: 'Keep me' },
        { guid: 'drop', title: 'Drop me' },
      ]);
      const seen: string[] = [];
      const { entries } = await poll('/feed?name=hooked', {
        onFetch: (_feed: unknown, outcome: { kind: string }) => void seen.push(`fetch:${outcome.kind}`),
        onEntry: (_feed: unknown, entry: { guid: string; title?: string }, change: string) => {
          seen.push(`${change}:${entry.guid}`);
          return entry.guid === 'drop' ? null : { ...entry, title: `${entry.title} [tagged]` };
        },
      });
      assert.deepEqual(seen, ['fetch:ok', 'new:keep', 'new:drop']);
      assert.deepEqual(
        entries.map((e) => e.title),
        ['Keep me [tagged]'],
      );
    });
  });
}
