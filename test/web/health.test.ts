import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoredFeed } from '../../src/model/stored.js';
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
    await client.post('/subscriptions/follow', { url: `${server.url}/gone-missing.xml`, channel: '' });
    broken = (await h.store.findFeedByUrl(`${server.url}/broken.xml`)) as StoredFeed;
    good = (await h.store.findFeedByUrl(server.feedUrl)) as StoredFeed;
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
      /<svg class="spark"[^>]*role="img" aria-label="1 polls, 0 failed, 25 new entries"/,
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
    await h.store.updateFeed(good.id, {
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
    const channel = await h.store.createChannel('Health only');
    await h.store.subscribe(channel.id, good.id, new Date().toISOString());
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
});
