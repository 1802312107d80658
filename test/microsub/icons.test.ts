// Microsub output found in issue 22: a feed's photo (and an entry's author card falling back to it)
// is the icon tidings stored, from tidings' own origin, never the publisher's icon URL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

type Json = Record<string, unknown>;
type Page = { items: Json[] };
// a 1x1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

for (const backend of storeBackends()) {
  describe(`microsub feed icons (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;

    before(async () => {
      h = await openHarness(backend);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    const page = async (params: Record<string, string>) => {
      const answer = await h.get({ action: 'timeline', ...params });
      assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 300));
      return answer.body as unknown as Page;
    };

    it("gives a feed's photo and the author card's fallback from tidings' origin, or none", async () => {
      const uid = (await h.post({ action: 'channels', name: 'Icons' })).body['uid'] as string;
      for (const name of ['with-icon', 'without-icon']) {
        h.docs[`/${name}.xml`] = { body: rss([item(`${name}-0`, 0)]), type: 'application/rss+xml' };
        const followed = await h.post({ action: 'follow', channel: uid, url: h.url(`/${name}.xml`) });
        assert.equal(followed.status, 200);
      }
      const withIcon = await h.store.feeds.findByUrl(h.url('/with-icon.xml'));
      const withoutIcon = await h.store.feeds.findByUrl(h.url('/without-icon.xml'));
      const now = h.clock.now().toISOString();
      await h.store.icons.save(withIcon?.id ?? 0, { contentType: 'image/png', bytes: PNG }, now);
      for (const feed of [withIcon, withoutIcon])
        await h.store.feeds.update(feed?.id ?? 0, { iconUrl: 'https://publisher.example/icon.png' });
      // the feeds with icons are read again after a minute
      h.clock.advance(61_000);

      const timeline = await page({ channel: uid });
      const follows = (await h.get({ action: 'follow', channel: uid })).body['items'] as Json[];
      const search = (await h.get({ action: 'search', query: 'icon' })).body['results'] as Json[];
      const found = (await h.get({ action: 'search', channel: uid, query: 'with' })).body['items'] as Json[];
      for (const answer of [timeline, follows, search, found])
        assert.doesNotMatch(JSON.stringify(answer), /publisher\.example/);

      const own = new RegExp(`^http://localhost/feed-icons/${withIcon?.id}/[A-Za-z0-9_-]{22}$`);
      const authorOf = (items: Json[], feedId: number | undefined) =>
        items.find((i) => i['_source'] === String(feedId))?.['author'] as Json;
      assert.match(String(authorOf(timeline.items, withIcon?.id)['photo']), own);
      assert.equal(authorOf(timeline.items, withoutIcon?.id)['photo'], undefined);
      assert.match(String(authorOf(found, withIcon?.id)['photo']), own);
      const photoOf = (items: Json[], url: string) => items.find((i) => i['url'] === url)?.['photo'];
      assert.match(String(photoOf(follows, h.url('/with-icon.xml'))), own);
      assert.equal(photoOf(follows, h.url('/without-icon.xml')), undefined);
      assert.match(String(photoOf(search, h.url('/with-icon.xml'))), own);
      assert.equal(photoOf(search, h.url('/without-icon.xml')), undefined);

      const icon = await h.app.request(new URL(String(photoOf(follows, h.url('/with-icon.xml')))).pathname);
      assert.equal(icon.status, 200);
      assert.deepEqual(Buffer.from(await icon.arrayBuffer()), PNG);
    });
  });
}
