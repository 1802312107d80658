// Issue 12, "The configured poll interval is a promise": cadence and hints stretch the interval only up to
// TIDINGS_ADAPTIVE_MAX times it, through the poller and the store, on both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Config } from '../../src/config.js';
import { explainNextCheck } from '../../src/poll/next-check.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const DAY_MS = 86_400_000;

// Five entries a week apart: a learnt cadence of a week.
const WEEKLY = rss(
  [0, 1, 2, 3, 4].map((week) => ({
    guid: `w${week}`,
    title: `Week ${week}`,
    pubDate: new Date(Date.parse('2026-02-22T10:00:00Z') - week * 7 * DAY_MS).toUTCString(),
  })),
);

for (const backend of storeBackends()) {
  describe(`poll schedule with TIDINGS_POLL_INTERVAL=5s (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    const clock = testClock();

    before(async () => {
      server = await startServer({
        '/weekly.xml': (_req, res) => send(res, 200, WEEKLY, { 'content-type': 'application/rss+xml' }),
        '/weekly-off.xml': (_req, res) => send(res, 200, WEEKLY, { 'content-type': 'application/rss+xml' }),
        '/ttl.xml': (_req, res) =>
          send(res, 200, rss([{ guid: 'a', title: 'A' }], '<ttl>60</ttl>'), {
            'content-type': 'application/rss+xml',
          }),
        '/max-age.xml': (req, res) => {
          if (req.headers['if-none-match'] === '"m"')
            return send(res, 304, '', { etag: '"m"', 'cache-control': 'max-age=9' });
          send(res, 200, rss([{ guid: 'a', title: 'A' }]), {
            'content-type': 'application/rss+xml',
            etag: '"m"',
          });
        },
        '/limited.xml': (_req, res) => send(res, 503, 'busy', { 'retry-after': '120' }),
        '/broken.xml': (_req, res) => send(res, 500, 'oops'),
      });
      store = await backend.open();
    });
    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    const FIVE_SECONDS: Partial<Config> = { pollIntervalSeconds: 5 };

    /** Polls the feed at this path now; its stored state and the seconds until its next check. */
    async function poll(path: string, config: Partial<Config> = FIVE_SECONDS) {
      const url = `${server.url}${path}`;
      const stored =
        (await store.feeds.findByUrl(url)) ?? (await addFollowedFeed(store, url, clock.now().toISOString()));
      await pollOnce(pollDeps(store, clock, { config }), { feedIds: [stored.id], force: true });
      const feed = await store.feeds.get(stored.id);
      assert.ok(feed);
      const waitSeconds = (Date.parse(feed.nextCheckAt) - clock.now().getTime()) / 1000;
      const explained = explainNextCheck(feed, { pollIntervalSeconds: 5, ...config });
      return { feed, waitSeconds, explained };
    }

    it('polls a feed whose entries are a week apart within 4x the interval, not once a day', async () => {
      const { feed, waitSeconds, explained } = await poll('/weekly.xml');
      assert.equal(feed.status, 'ok');
      assert.ok((feed.cadenceSeconds ?? 0) >= 6 * 86_400, `cadence ${feed.cadenceSeconds}`);
      assert.equal(waitSeconds, 20);
      assert.equal(explained.reason, 'cadence');
      clock.advance(20_000);
      assert.equal((await poll('/weekly.xml')).waitSeconds, 20, 'and again on the next poll');
    });

    it('polls it exactly at the interval when TIDINGS_ADAPTIVE_MAX=1', async () => {
      const config = { ...FIVE_SECONDS, adaptiveMax: 1 };
      const { waitSeconds, explained } = await poll('/weekly-off.xml', config);
      assert.equal(waitSeconds, 5);
      assert.equal(explained.reason, 'interval');
    });

    it('honours a ttl within the same bound, and says so', async () => {
      const { feed, waitSeconds, explained } = await poll('/ttl.xml');
      assert.equal(feed.hintIntervalSeconds, 3600);
      assert.equal(waitSeconds, 20);
      assert.equal(explained.reason, 'hint');
      clock.advance(20_000);
      const wider = await poll('/ttl.xml', { ...FIVE_SECONDS, adaptiveMax: 1000 });
      assert.equal(wider.waitSeconds, 3600, 'a wider bound lets the hint through');
    });

    it('keeps the max-age of a 304 as the hint it used, so its page can say why', async () => {
      assert.equal((await poll('/max-age.xml')).waitSeconds, 5);
      clock.advance(5_000);
      const { feed, waitSeconds, explained } = await poll('/max-age.xml');
      assert.equal(feed.status, 'not_modified');
      assert.equal(waitSeconds, 9);
      assert.equal(feed.hintIntervalSeconds, 9);
      assert.equal(explained.reason, 'hint');
    });

    it('backs off on errors and honours Retry-After beyond the bound', async () => {
      const broken = await poll('/broken.xml');
      assert.equal(broken.explained.reason, 'backoff');
      clock.advance(5_000);
      assert.equal((await poll('/broken.xml')).waitSeconds, 10);
      const limited = await poll('/limited.xml');
      assert.equal(limited.waitSeconds, 120);
      assert.equal(limited.explained.reason, 'retry-after');
    });

    it('explains a paused feed as paused, whatever its stored next check', async () => {
      const { feed } = await poll('/weekly.xml');
      await store.feeds.update(feed.id, { paused: true });
      const paused = await store.feeds.get(feed.id);
      assert.ok(paused);
      assert.equal(explainNextCheck(paused, { pollIntervalSeconds: 5 }).reason, 'paused');
    });
  });
}
