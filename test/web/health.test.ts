import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoredFeed } from '../../src/model/stored.js';
import { pollOnce } from '../../src/poll/poller.js';
import { addFollowedFeed, testPoll } from '../helpers/temp-store.js';
import { startFixtures } from './fixtures.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

describe('web: feed health', () => {
  let h: WebHarness;
  let client: Client;
  let server: Awaited<ReturnType<typeof startFixtures>>;
  let broken: StoredFeed;
  let good: StoredFeed;

  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
    await client.post('/subscriptions/follow', { url: server.feedUrl, channel: '' });
    await client.post('/subscriptions/follow', { url: `${server.url}/broken.xml`, channel: '' });
    // following refuses a URL that fails (issue 13): this one fails after it was followed
    const missing = await addFollowedFeed(
      h.store,
      `${server.url}/gone-missing.xml`,
      h.clock.now().toISOString(),
    );
    await pollOnce(h.deps.poll, { feedIds: [missing.id], force: true });
    broken = (await h.store.feeds.findByUrl(`${server.url}/broken.xml`)) as StoredFeed;
    good = (await h.store.feeds.findByUrl(server.feedUrl)) as StoredFeed;
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('lists every feed with its status in words and colour, times, errors and a strip of polls', async () => {
    const page = await client.get('/feeds');
    assert.equal(page.status, 200);
    assert.match(
      page.text,
      /<span class="status status-parse_error" data-status="parse_error">parse error<\/span>/,
    );
    assert.match(
      page.text,
      /<span class="status status-fetch_error" data-status="fetch_error">fetch error<\/span>/,
    );
    assert.match(page.text, /<span class="status status-ok" data-status="ok">ok<\/span>/);
    assert.match(
      page.text,
      /<svg class="spark"[^>]*role="img" aria-label="1 poll, 0 failed, 25 new entries"/,
    );
    assert.match(page.text, /<path class="hb hb-ok" d="M145 20v-20h4v20z"/);
    assert.match(page.text, /<path class="hb hb-fetch_error"/);
    // worst first
    assert.ok(page.text.indexOf('status-fetch_error') < page.text.indexOf('data-health="ok"'));
  });

  it("shows a broken feed's diagnostics with entry index, field, line and column, and its heartbeats", async () => {
    assert.equal(broken.status, 'parse_error');
    const page = await client.get(`/feeds/${broken.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Broken feed/);
    assert.match(page.text, /class="diag diag-error"/);
    assert.match(page.text, /line \d+, column \d+/);
    assert.match(page.text, /entry index 0, field pubDate/);
    assert.match(page.text, /data-heartbeat="parse_error"/);
    assert.match(page.text, /Refresh now/);
  });

  it('shows the raw line of the document under a diagnostic, with a caret at the column', async () => {
    await h.store.feeds.update(good.id, {
      diagnostics: [
        {
          severity: 'warning',
          code: 'date.unparseable',
          message: 'the date "<b>soon</b>" cannot be read',
          entry: 3,
          field: 'pubDate',
          line: 41,
          column: 10,
          excerpt: '\t<pubDate><b>soon</b></pubDate>',
        },
      ],
    });
    const page = await client.get(`/feeds/${good.id}`);
    assert.match(page.text, /entry index 3, field pubDate, line 41, column 10/);
    assert.match(
      page.text,
      /<pre class="excerpt"><code>\t&lt;pubDate&gt;&lt;b&gt;soon&lt;\/b&gt;&lt;\/pubDate&gt;<\/code><span class="caret">\n\t {8}\^<\/span><\/pre>/,
    );
    assert.match(
      page.text,
      /the date &quot;&lt;b&gt;soon&lt;\/b&gt;&quot; cannot be read|the date "&lt;b&gt;soon&lt;\/b&gt;" cannot be read/,
    );
  });

  it('filters by status, channel and text, sorts, and pages with GET parameters', async () => {
    const rowsOf = (text: string) => [...text.matchAll(/<tr data-feed="(\d+)" data-health="([a-z_]+)"/g)];
    const parseErrors = await client.get('/feeds?status=parse_error');
    assert.deepEqual(
      rowsOf(parseErrors.text).map((match) => Number(match[1])),
      [broken.id],
    );
    assert.match(parseErrors.text, /<option value="parse_error" selected="">parse error<\/option>/);
    const byText = await client.get(`/feeds?q=${encodeURIComponent('GONE-missing')}`);
    assert.deepEqual(
      rowsOf(byText.text).map((match) => match[2]),
      ['fetch_error'],
    );
    const channel = await h.store.channels.create('Health only');
    await h.store.channels.subscribe(channel.id, good.id, new Date().toISOString());
    const inChannel = await client.get(`/feeds?channel=${channel.uid}`);
    assert.deepEqual(
      rowsOf(inChannel.text).map((match) => Number(match[1])),
      [good.id],
    );
    const byTitle = await client.get('/feeds?sort=title');
    assert.equal(rowsOf(byTitle.text).length, 3);
    const nothing = await client.get('/feeds?q=no-such-feed&page=7&sort=bogus');
    assert.equal(nothing.status, 200);
    assert.match(nothing.text, /No feed matches these filters/);
  });

  it('answers 404 for an unknown feed', async () => {
    assert.equal((await client.get('/feeds/99999')).status, 404);
    assert.equal((await client.get('/feeds/abc')).status, 404);
  });

  it('says a paused feed is not checked until resumed, not when its next check would have been', async () => {
    await client.post(`/feeds/${good.id}/pause`, { paused: '1' });
    const page = await client.get(`/feeds/${good.id}`);
    assert.match(page.text, /data-next-check="paused">Paused: not checked until resumed</);
    const dashboard = await client.get('/feeds');
    // the list's cells carry a data-label for the phone cards (work/scale)
    assert.match(
      dashboard.text,
      new RegExp(`data-feed="${good.id}"[\\s\\S]*?<td data-label="Next check">paused</td>`),
    );
    await client.post(`/feeds/${good.id}/pause`, { paused: '0' });
    const resumed = await client.get(`/feeds/${good.id}`);
    assert.doesNotMatch(resumed.text, /Paused: not checked/);
  });

  it('says why the next check is when it is', async () => {
    const now = h.clock.now().getTime();
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    const state = { status: 'ok', errorCount: 0, lastCheckedAt: at(0), hintIntervalSeconds: null } as const;
    const words = async (patch: Parameters<typeof h.store.feeds.update>[1]) => {
      await h.store.feeds.update(good.id, { ...state, ...patch });
      const page = await client.get(`/feeds/${good.id}`);
      return /data-next-check="([a-z-]+)">([\s\S]*?)<\/dd>/.exec(page.text)?.slice(1).join(' ') ?? '';
    };
    assert.match(
      await words({ nextCheckAt: at(3600), cadenceSeconds: 600 }),
      /^interval .*\(every 1 h, as configured\)/,
    );
    assert.match(
      await words({ nextCheckAt: at(4 * 3600), cadenceSeconds: 7 * 86400 }),
      /^cadence .*it posts about every 7 d: every 4 h, 4x the 1 h interval/,
    );
    assert.match(
      await words({ nextCheckAt: at(4 * 3600), cadenceSeconds: 600, hintIntervalSeconds: 86400 }),
      /^hint .*the feed asks for at most one check every 1 d .*: every 4 h, 4x the 1 h interval, the most TIDINGS_ADAPTIVE_MAX=4 allows/,
    );
    assert.match(
      await words({ nextCheckAt: at(4 * 3600), status: 'fetch_error', errorCount: 3 }),
      /^backoff .*backing off after 3 errors in a row: waits 4 h/,
    );
    assert.match(
      await words({ nextCheckAt: at(7200), status: 'fetch_error', errorCount: 1, retryAfterAt: at(7200) }),
      /^retry-after .*the server asked to wait: Retry-After/,
    );
    assert.match(await words({ status: 'gone' }), /^gone Never: the feed is gone/);
  });

  it("says no document was read when the fetch failed, and keeps the last document's diagnostics apart", async () => {
    const missing = (await h.store.feeds.findByUrl(`${server.url}/gone-missing.xml`)) as StoredFeed;
    assert.equal(missing.status, 'fetch_error');
    const page = await client.get(`/feeds/${missing.id}`);
    assert.match(page.text, /No document was read \(the fetch failed\)/);
    assert.doesNotMatch(page.text, /No problems found in the document/);
    await h.store.feeds.update(good.id, { status: 'fetch_error', errorCount: 1 });
    const earlier = await client.get(`/feeds/${good.id}`);
    assert.match(
      earlier.text,
      /No document was read \(the fetch failed\)[\s\S]*The document read before it had these[\s\S]*date.unparseable/,
    );
  });

  it('keeps the diagnostics of the last document on a 304', async () => {
    await h.store.feeds.update(good.id, { status: 'not_modified', errorCount: 0 });
    const page = await client.get(`/feeds/${good.id}`);
    assert.doesNotMatch(page.text, /No document was read/);
    assert.match(page.text, /data-diagnostic="date.unparseable"/);
  });
  it('counts diagnostics, polls and feeds in words of the right number (issue 22: "1 diagnostics")', async () => {
    const feed = await addFollowedFeed(
      h.store,
      'https://plural.example/feed.xml',
      h.clock.now().toISOString(),
    );
    const diagnostic = { severity: 'warning' as const, code: 'date.unparseable', message: 'no date' };
    for (const [minute, diagnostics] of [
      [1, [diagnostic]],
      [2, [diagnostic, diagnostic]],
    ] as const) {
      const now = new Date(h.clock.now().getTime() + minute * 60_000).toISOString();
      const poll = testPoll(feed.id, [], now);
      await h.store.polling.record({
        ...poll,
        heartbeat: { ...poll.heartbeat, diagnostics: [...diagnostics] },
      });
    }
    const page = await client.get(`/feeds/${feed.id}`);
    assert.match(page.text, /<summary>1 diagnostic<\/summary>/);
    assert.match(page.text, /<summary>2 diagnostics<\/summary>/);
    assert.doesNotMatch(page.text, /\b1 (diagnostics|polls|feeds|entries)\b/);
    const dashboard = await client.get(`/feeds?q=${encodeURIComponent('plural.example')}`);
    assert.match(dashboard.text, /aria-label="2 polls, 0 failed, 0 new entries"/);
    assert.match(dashboard.text, /1 of \d+ feeds match/);
    assert.doesNotMatch(dashboard.text, /\b1 (diagnostics|polls|feeds|entries)\b/);
  });
});
