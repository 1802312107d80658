// The one URL policy of every output (issue 22), in Microsub: feeds that carry `javascript:` and
// `data:` URLs in every place a feed can put a URL reach no client through any action: timeline,
// search (entries and feeds), follow lists, preview, mute and block lists. What is safe stays. Both
// backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { storeBackends } from '../helpers/temp-store.js';
import { hasUnsafeUrl, serveUnsafeFeeds, UNSAFE_FEEDS } from '../helpers/unsafe-urls.js';
import { type Harness, openHarness } from './harness.js';

type Item = {
  url?: string;
  uid?: string;
  summary?: string;
  content?: { html?: string };
  author?: { name?: string };
};

for (const backend of storeBackends()) {
  describe(`microsub URL policy (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let uid: string;

    /** The answer as a client reads it, checked for any unsafe URL. */
    const safeBody = (answer: { status: number; body: Record<string, unknown> }, what: string) => {
      assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      const text = JSON.stringify(answer.body);
      assert.ok(!hasUnsafeUrl(text), `${what} carries an unsafe URL: ${text.slice(0, 2000)}`);
      return answer.body;
    };

    before(async () => {
      h = await openHarness(backend);
      serveUnsafeFeeds(h.docs);
      uid = (await h.post({ action: 'channels', name: 'Unsafe' })).body['uid'] as string;
      for (const path of Object.keys(UNSAFE_FEEDS)) {
        safeBody(await h.post({ action: 'follow', channel: uid, url: h.url(path) }), `follow ${path}`);
      }
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('serves timeline items without unsafe URLs, keeping the safe ones and the entries', async () => {
      const body = safeBody(await h.get({ action: 'timeline', channel: uid }), 'timeline');
      const items = body['items'] as Item[];
      assert.equal(items.length, 5);
      for (const item of items) {
        assert.equal(item.url, undefined);
        assert.match(item.content?.html ?? item.summary ?? '', /href="https:\/\/example\.com\/fine"/);
      }
      assert.ok(items.some((item) => item.author?.name === 'Mallory'));
      // the h-entry's uid is its (unsafe) u-url: left out; the others' uids stay
      assert.deepEqual(items.map((item) => item.uid).sort(), [
        'unsafe-json-1',
        'unsafe-rss-1',
        'urn:tidings:unsafe-atom:1',
        'urn:tidings:unsafe-atom:2',
        undefined,
      ]);
    });

    it('serves search results, follow lists and previews without unsafe URLs', async () => {
      const entries = safeBody(
        await h.post({ action: 'search', channel: 'global', query: 'link' }),
        'search',
      );
      assert.ok((entries['items'] as Item[]).length > 0);
      safeBody(await h.get({ action: 'follow', channel: uid }), 'follow list');
      safeBody(await h.post({ action: 'search', query: 'unsafe' }), 'feed search by words');
      for (const path of [...Object.keys(UNSAFE_FEEDS), '/unsafe-icons.json']) {
        safeBody(await h.post({ action: 'search', query: h.url(path) }), `feed search ${path}`);
        const preview = safeBody(await h.post({ action: 'preview', url: h.url(path) }), `preview ${path}`);
        assert.ok((preview['items'] as Item[]).length > 0);
      }
      const icons = await h.post({ action: 'preview', url: h.url('/unsafe-icons.json') });
      const [item] = icons.body['items'] as (Item & { author?: { photo?: string } })[];
      assert.equal(item?.url, 'https://example.com/icons-1');
      // the item has the feed's author (JSON Feed 1.1), whose avatar is unsafe, as are the site URL and the
      // icon: the card names the feed itself, and has no photo
      assert.deepEqual(item?.author, { type: 'card', name: 'Mallory', url: h.url('/unsafe-icons.json') });
    });

    it('leaves out of mute and block lists a rule whose URL is not http(s)', async () => {
      const at = h.clock.now().toISOString();
      await h.store.filters.add({ kind: 'mute', url: 'javascript:alert("pwned")' }, at);
      await h.store.filters.add({ kind: 'mute', url: 'https://ok.example/' }, at);
      const body = safeBody(await h.get({ action: 'mute' }), 'mute list');
      assert.deepEqual(body['items'], [{ type: 'card', url: 'https://ok.example/' }]);
    });
  });
}
