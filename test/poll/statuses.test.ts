// Every heartbeat status and fault of the engine issue, against a real local HTTP server, on both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const FEED = rss([
  { guid: 'a', title: 'First', pubDate: 'Mon, 02 Feb 2026 10:00:00 GMT' },
  { guid: 'b', title: 'Second', pubDate: 'Mon, 02 Feb 2026 10:30:00 GMT' },
]);

for (const backend of storeBackends()) {
  describe(`poll statuses (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    let base: string;
    const clock = testClock();
    const flaky = { count: 0 };

    before(async () => {
      server = await startServer({
        '/ok.xml': (req, res) => {
          if (req.headers['if-none-match'] === '"v1"') return send(res, 304, '', { etag: '"v1"' });
          send(res, 200, FEED, { 'content-type': 'application/rss+xml', etag: '"v1"' });
        },
        '/gone.xml': (_req, res) => send(res, 410, 'gone'),
        '/missing.xml': (_req, res) => send(res, 404, 'no'),
        '/broken.xml': (_req, res) => send(res, 500, 'oops'),
        '/limited.xml': (_req, res) => send(res, 429, 'slow down', { 'retry-after': '7200' }),
        '/malformed.xml': (_req, res) =>
          send(res, 200, FEED.replace('<title>Second</title>', '<title>Sec & ond</title>'), {
            'content-type': 'text/xml; charset=utf-8',
          }),
        // the same broken document, with a 500 between its first answer and the 304s
        '/malformed-flaky.xml': (req, res) => {
          flaky.count++;
          if (flaky.count === 2) return send(res, 500, 'oops');
          if (req.headers['if-none-match'] === '"f1"') return send(res, 304, '', { etag: '"f1"' });
          send(res, 200, FEED.replace('<title>Second</title>', '<title>Sec & ond</title>'), {
            'content-type': 'text/xml; charset=utf-8',
            etag: '"f1"',
          });
        },
        '/malformed-etag.xml': (req, res) => {
          if (req.headers['if-none-match'] === '"m1"') return send(res, 304, '', { etag: '"m1"' });
          send(res, 200, FEED.replace('<title>Second</title>', '<title>Sec & ond</title>'), {
            'content-type': 'text/xml; charset=utf-8',
            etag: '"m1"',
          });
        },
        // bare text/xml over UTF-8 that its declaration names (servers send it so): RFC 7303 reads it
        '/bare-text-xml.xml': (_req, res) =>
          send(res, 200, Buffer.from(FEED.replace('First', 'Café')), {
            'content-type': 'text/xml',
          }),
        '/charset.xml': (_req, res) =>
          send(res, 200, Buffer.from(FEED.replace('First', 'Café'), 'latin1'), {
            'content-type': 'application/rss+xml; charset=utf-8',
          }),
        '/page.html': (_req, res) =>
          send(
            res,
            200,
            '<!DOCTYPE html><html><head><link rel="alternate" type="application/atom+xml" href="/atom.xml"></head><body>hi</body></html>',
            { 'content-type': 'text/html' },
          ),
        '/slow.xml': (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/rss+xml' });
          res.write('<rss>');
        },
        '/huge.xml': (_req, res) =>
          send(res, 200, `<rss><channel>${'x'.repeat(2 * 1024 * 1024)}</channel></rss>`),
      });
      base = server.url;
      store = await backend.open();
    });

    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    async function pollPath(path: string, options: { force?: boolean } = {}) {
      const feed =
        (await store.feeds.findByUrl(`${base}${path}`)) ??
        (await addFollowedFeed(store, `${base}${path}`, clock.now().toISOString()));
      await pollOnce(pollDeps(store, clock), { feedIds: [feed.id], ...options });
      return {
        feed: (await store.feeds.get(feed.id))!,
        heartbeats: await store.heartbeats.list(feed.id, 10),
      };
    }

    it('stores a good feed: ok, entries, validators, the next check an interval away', async () => {
      const { feed, heartbeats } = await pollPath('/ok.xml');
      assert.equal(feed.status, 'ok');
      assert.equal(feed.etag, '"v1"');
      assert.equal(feed.title, 'Test feed');
      assert.equal(heartbeats[0]?.newCount, 2);
      assert.equal(feed.nextCheckAt, new Date(clock.now().getTime() + 3600_000).toISOString());
      assert.equal((await store.entries.listByFeed(feed.id, 10)).length, 2);
    });

    it('asks conditionally next time: 304 is not_modified, and nothing is parsed or stored twice', async () => {
      clock.advance(3600_000);
      const { feed, heartbeats } = await pollPath('/ok.xml');
      assert.equal(feed.status, 'not_modified');
      assert.equal(heartbeats[0]?.httpStatus, 304);
      assert.equal(server.requests.at(-1)?.headers['if-none-match'], '"v1"');
      assert.equal((await store.entries.listByFeed(feed.id, 10)).length, 2);
    });

    it('marks a 410 feed gone and never polls it again, even when forced', async () => {
      const { feed } = await pollPath('/gone.xml');
      assert.equal(feed.status, 'gone');
      const before = server.requests.length;
      clock.advance(48 * 3600_000);
      await pollPath('/gone.xml', { force: true });
      assert.equal(server.requests.length, before);
    });

    it('backs off exponentially on 404 and 500 and keeps polling', async () => {
      const first = await pollPath('/missing.xml');
      assert.equal(first.feed.status, 'fetch_error');
      assert.match(first.feed.message ?? '', /404/);
      clock.advance(3600_000);
      const second = await pollPath('/missing.xml');
      assert.equal(second.feed.errorCount, 2);
      assert.equal(second.feed.nextCheckAt, new Date(clock.now().getTime() + 7200_000).toISOString());
      const broken = await pollPath('/broken.xml');
      assert.equal(broken.feed.status, 'fetch_error');
      assert.equal(broken.feed.httpStatus, 500);
    });

    it('honours Retry-After on 429: no request before it, even when forced', async () => {
      const { feed } = await pollPath('/limited.xml');
      assert.equal(feed.status, 'fetch_error');
      assert.equal(feed.retryAfterAt, new Date(clock.now().getTime() + 7200_000).toISOString());
      const before = server.requests.length;
      clock.advance(3600_000);
      await pollPath('/limited.xml', { force: true });
      assert.equal(server.requests.length, before);
    });

    it('stores what it can recover from a document that is not well-formed: parse_error with where', async () => {
      const { feed, heartbeats } = await pollPath('/malformed.xml');
      assert.equal(feed.status, 'parse_error');
      assert.match(feed.message ?? '', /bare "&".*line \d+/);
      assert.equal(heartbeats[0]?.newCount, 2);
      const diagnostic = feed.diagnostics.find((d) => d.code === 'xml.not-well-formed');
      assert.equal(diagnostic?.entry, 1);
      assert.equal(diagnostic?.field, 'title');
      assert.match(diagnostic?.excerpt ?? '', /Sec & ond/, 'the raw line is kept for the health page');
    });

    it('keeps parse_error while the server answers 304 for the same broken document', async () => {
      const first = await pollPath('/malformed-etag.xml');
      assert.equal(first.feed.status, 'parse_error');
      clock.advance(2 * 3600 * 1000);
      const { feed, heartbeats } = await pollPath('/malformed-etag.xml', { force: true });
      assert.equal(heartbeats[0]?.status, 'not_modified');
      assert.equal(heartbeats[0]?.httpStatus, 304);
      assert.equal(feed.status, 'parse_error');
      assert.match(feed.message ?? '', /bare "&"/);
      assert.ok(feed.diagnostics.some((d) => d.code === 'xml.not-well-formed'));
    });

    it('keeps parse_error for a 304 after a failed fetch: the broken document is still the feed', async () => {
      assert.equal((await pollPath('/malformed-flaky.xml')).feed.status, 'parse_error');
      clock.advance(2 * 3600 * 1000);
      assert.equal((await pollPath('/malformed-flaky.xml', { force: true })).feed.status, 'fetch_error');
      clock.advance(2 * 3600 * 1000);
      const { feed, heartbeats } = await pollPath('/malformed-flaky.xml', { force: true });
      assert.equal(heartbeats[0]?.status, 'not_modified');
      assert.equal(feed.status, 'parse_error', 'not not_modified: nothing recovered');
      assert.match(feed.message ?? '', /bare "&"/);
    });

    it('reports bytes that do not match the charset as encoding_error, entries stored', async () => {
      const { feed, heartbeats } = await pollPath('/charset.xml');
      assert.equal(feed.status, 'encoding_error');
      assert.equal(heartbeats[0]?.newCount, 2);
      const titles = (await store.entries.listByFeed(feed.id, 10)).map((e) => e.title);
      assert.ok(titles.includes('Café'));
    });

    it('reads bare text/xml as its XML declaration says: ok, with a warning, not encoding_error', async () => {
      const { feed } = await pollPath('/bare-text-xml.xml');
      assert.equal(feed.status, 'ok', feed.message);
      assert.deepEqual(
        feed.diagnostics.filter((d) => d.code.startsWith('encoding.')).map((d) => [d.code, d.severity]),
        [['encoding.text-xml-default', 'warning']],
      );
      const titles = (await store.entries.listByFeed(feed.id, 10)).map((e) => e.title);
      assert.ok(titles.includes('Café'));
    });

    it('reports an HTML page as parse_error naming the feeds it links to, and follows the first from then on', async () => {
      const { feed } = await pollPath('/page.html');
      assert.equal(feed.status, 'parse_error');
      assert.match(feed.message ?? '', /HTML page.*\/atom\.xml.*following its feed/);
      assert.equal(feed.url, `${base}/atom.xml`);
      assert.equal(feed.originalUrl, `${base}/page.html`);
      assert.equal(feed.nextCheckAt, clock.now().toISOString());
    });

    it('turns a timeout and a body over the limit into fetch_error with the reason', async () => {
      const slow = await pollPath('/slow.xml');
      assert.equal(slow.feed.status, 'fetch_error');
      assert.match(slow.feed.message ?? '', /timed out/);
      const huge = await pollPath('/huge.xml');
      assert.equal(huge.feed.status, 'fetch_error');
      assert.match(huge.feed.message ?? '', /exceeds/);
    });
  });
}
