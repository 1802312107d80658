// A feed with NUL, other C0 control characters and lone surrogates stores on both backends (issue 12:
// PostgreSQL refuses NUL in text).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const RSS =
  '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>Feed\u0000 title</title>' +
  '<item><guid isPermaLink="false">a\u0000b</guid><title>One\u0001\u0007</title><link>https://example.com/1\u0000</link>' +
  '<description>&lt;p&gt;text\u0000\u001f&lt;/p&gt;</description><category>c\u0000</category>' +
  '<author>x\u0008@example.com</author></item></channel></rss>';

const JSON_FEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'JSON\u0000',
  items: [
    {
      id: '\ud800id',
      title: 'Two \udc00\u0000',
      content_html: '<p>\u0000x\ud800</p>',
      tags: ['t\u0000'],
      authors: [{ name: 'n\u0000' }],
    },
  ],
});

const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDFFF]/u;

for (const backend of storeBackends()) {
  describe(`poll a feed with control characters (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    const clock = testClock();

    before(async () => {
      server = await startServer({
        '/rss': (_req, res) => send(res, 200, RSS, { 'content-type': 'application/rss+xml' }),
        '/json': (_req, res) => send(res, 200, JSON_FEED, { 'content-type': 'application/feed+json' }),
      });
      store = await backend.open();
    });

    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    async function poll(path: string) {
      const url = `${server.url}${path}`;
      const feed = await addFollowedFeed(store, url, clock.now().toISOString());
      await pollOnce(pollDeps(store, clock), { feedIds: [feed.id], force: true });
      return {
        feed: (await store.feeds.get(feed.id))!,
        entries: await store.entries.listByFeed(feed.id, 100),
        heartbeat: (await store.heartbeats.list(feed.id, 1))[0]!,
      };
    }

    it('stores an RSS feed whose fields hold NUL and other control characters, without them', async () => {
      const { feed, entries, heartbeat } = await poll('/rss');
      // not well-formed XML (a control character is not an XML character): reported, and stored all the same
      assert.equal(heartbeat.status, 'parse_error');
      assert.match(heartbeat.message ?? '', /disallowed character/);
      assert.equal(entries.length, 1);
      assert.equal(entries[0]?.guid, 'ab');
      assert.equal(entries[0]?.title, 'One');
      assert.equal(entries[0]?.url, 'https://example.com/1');
      assert.deepEqual(entries[0]?.categories, ['c']);
      assert.doesNotMatch(JSON.stringify(entries), /\\u00[01]/);
      assert.equal(feed.title, 'Feed title');
    });

    it('stores a JSON Feed with NUL escapes and lone surrogates, replaced by U+FFFD', async () => {
      const { entries, heartbeat } = await poll('/json');
      assert.equal(heartbeat.status, 'ok', heartbeat.message);
      assert.equal(entries.length, 1);
      assert.equal(entries[0]?.guid, '\ufffdid');
      assert.equal(entries[0]?.title, 'Two \ufffd');
      for (const value of [entries[0]?.contentHtml, ...(entries[0]?.categories ?? [])])
        assert.doesNotMatch(value ?? '', UNWANTED);
    });
  });
}
