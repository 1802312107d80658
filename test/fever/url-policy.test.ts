// The one URL policy of every output (issue 22), in the Fever API: feeds that carry `javascript:` and
// `data:` URLs in every place a feed can put a URL give apps no such URL in `feeds` (url, site_url) or
// `items` (url, html). What is safe stays. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FEVER_KEY, openSyncHarness, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { hasUnsafeUrl, serveUnsafeFeeds, UNSAFE_FEEDS } from '../helpers/unsafe-urls.js';

type Body = Record<string, unknown>;

for (const backend of storeBackends()) {
  describe(`fever URL policy (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;

    const fever = async (query: string) => {
      const res = await h.app.request(`/api/fever?api&${query}`, {
        method: 'POST',
        body: new URLSearchParams({ api_key: FEVER_KEY }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.ok(!hasUnsafeUrl(text), `${query} carries an unsafe URL: ${text.slice(0, 2000)}`);
      return JSON.parse(text) as Body;
    };

    before(async () => {
      h = await openSyncHarness(backend);
      serveUnsafeFeeds(h.docs);
      for (const path of Object.keys(UNSAFE_FEEDS)) await h.follow(path, 'Unsafe');
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('gives feeds without unsafe site URLs, their own URLs kept', async () => {
      const feeds = (await fever('feeds&groups'))['feeds'] as Body[];
      assert.deepEqual(feeds.map((feed) => feed['url']).sort(), Object.keys(UNSAFE_FEEDS).map(h.url).sort());
      // the site links of three are unsafe; the h-feed page is its own site
      const sites = feeds.map((feed) => feed['site_url']).filter((site) => site !== '');
      assert.deepEqual(sites, [h.url('/unsafe.html')]);
    });

    it('gives items without unsafe URLs, their safe content links kept', async () => {
      const items = (await fever('items&unread_item_ids&saved_item_ids'))['items'] as Body[];
      assert.equal(items.length, 5);
      for (const item of items) {
        assert.equal(item['url'], '');
        assert.match(String(item['html']), /href="https:\/\/example\.com\/fine"/);
      }
    });
  });
}
