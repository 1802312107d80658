import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSql } from '../helpers/raw-sql.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

// Issue 14: the health list of 2,000 feeds with 30 heartbeats each was 8.8 MB of HTML. A page of it must
// stay under 300 KB.

const FEEDS = 2000;
const LIMIT_BYTES = 300 * 1024;

describe('web: feed health at 2,000 feeds', () => {
  let h: WebHarness;
  let client: Client;

  before(async () => {
    h = await webHarness();
    client = await signedIn(h.app);
    const now = new Date().toISOString();
    for (let i = 0; i < FEEDS; i++) {
      const feed = await h.store.feeds.add(`https://feed-${i}.example/feed.xml`, now);
      await h.store.feeds.update(feed.id, {
        title: `A feed with a fairly long title, number ${i}`,
        status: i % 10 === 0 ? 'fetch_error' : 'ok',
        message: i % 10 === 0 ? 'HTTP 503 Service Unavailable: the server is busy, try later' : null,
        errorCount: i % 10 === 0 ? 3 : 0,
        lastCheckedAt: now,
        lastSuccessAt: now,
      });
    }
    await runSql(
      h.backend,
      h.store,
      `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 30)
       INSERT INTO heartbeats (feed_id, at, status, new_count, updated_count, bytes, duration_ms, diagnostics)
       SELECT feeds.id, '2026-01-01T00:' || printf('%02d', n.k) || ':00.000Z',
         CASE WHEN n.k % 7 = 0 THEN 'fetch_error' ELSE 'ok' END, n.k % 5, 0, 1000, 20, '[]'
       FROM feeds, n`,
    );
  });
  after(() => h.close());

  it('sends a page of feeds under 300 KB, with links to the other pages', async () => {
    // the admin's view of every feed of the instance (these feeds are followed by nobody)
    const page = await client.get('/feeds?all=1');
    assert.equal(page.status, 200);
    const bytes = Buffer.byteLength(page.text);
    console.log(`health page: ${bytes} bytes for ${FEEDS} feeds`);
    assert.ok(bytes < LIMIT_BYTES, `${bytes} bytes`);
    assert.equal([...page.text.matchAll(/<tr data-feed=/g)].length, 50);
    assert.match(page.text, /page 1 of 40/);
    assert.match(page.text, /<a rel="next" href="\/feeds\?all=1&amp;page=2">/);
    // worst first: the 200 failing feeds fill the first four pages
    assert.ok(!page.text.includes('data-health="ok"'));
    const last = await client.get('/feeds?all=1&page=40');
    assert.equal([...last.text.matchAll(/<tr data-feed=/g)].length, 50);
    assert.match(last.text, /<a rel="prev" href="\/feeds\?all=1&amp;page=39">/);
  });
});
