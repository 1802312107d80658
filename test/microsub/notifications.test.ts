// Issue 25: the Microsub notifications channel is every user's alert destination. A feed broken for
// three polls gives exactly one "Feed failing" item there (with the parse error's line and column), its
// recovery exactly one "Feed recovered"; a notify rule's match arrives there too. Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

type Item = {
  _id: string;
  category?: string[];
  name?: string;
  content?: { text?: string };
  _is_read: boolean;
  published?: string;
};

for (const backend of storeBackends()) {
  describe(`microsub notifications channel (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;

    before(async () => {
      h = await openHarness(backend);
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    async function notifications(): Promise<Item[]> {
      const answer = await h.get({ action: 'timeline', channel: 'notifications' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body['items'] as Item[];
    }

    async function unread(uid: string): Promise<unknown> {
      const channels = (await h.get({ action: 'channels' })).body['channels'] as {
        uid: string;
        unread: unknown;
      }[];
      return channels.find((ch) => ch.uid === uid)?.unread;
    }

    it('gets one item when a feed starts failing, one when it recovers, with where it broke', async () => {
      h.docs['/flaky.xml'] = { body: rss([item('a', 1)]), type: 'application/rss+xml' };
      const home = (await h.post({ action: 'channels', name: 'Home' })).body['uid'] as string;
      const followed = await h.post({ action: 'follow', channel: home, url: h.url('/flaky.xml') });
      assert.equal(followed.status, 200, JSON.stringify(followed.body));
      await h.poll(h.url('/flaky.xml'));
      h.docs['/flaky.xml'] = {
        body: '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Flaky</title>\n  <item><title>A & B</title></item></channel></rss>',
        type: 'application/rss+xml',
      };
      for (let i = 0; i < 5; i++) await h.poll(h.url('/flaky.xml'));
      const failing = await notifications();
      assert.equal(failing.length, 1, JSON.stringify(failing));
      assert.match(failing[0]?.name ?? '', /^Feed failing: /);
      assert.deepEqual(failing[0]?.category, ['feed.failing']);
      assert.match(failing[0]?.content?.text ?? '', /line 3, column \d+ \(/);
      assert.equal(failing[0]?._is_read, false);
      assert.equal(await unread('notifications'), 1);
      // the alert is no entry of the channel that follows the feed
      const homeItems = (await h.get({ action: 'timeline', channel: home })).body['items'] as Item[];
      assert.ok(homeItems.every((entry) => !(entry.name ?? '').startsWith('Feed failing')));
      // alerts stay out of the full-text index, alike on both databases
      const found = await h.get({ action: 'search', channel: 'notifications', query: 'failing' });
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(found.body['items'], []);
      h.docs['/flaky.xml'] = { body: rss([item('a', 1), item('b', 2)]), type: 'application/rss+xml' };
      await h.poll(h.url('/flaky.xml'));
      await h.poll(h.url('/flaky.xml'));
      const both = await notifications();
      assert.deepEqual(
        both.map((entry) => entry.name?.replace(/:.*/, '')),
        ['Feed recovered', 'Feed failing'],
      );
      const marked = await h.post({
        action: 'timeline',
        method: 'mark_read',
        channel: 'notifications',
        entry: both.map((e) => e._id),
      });
      assert.equal(marked.status, 200, JSON.stringify(marked.body));
      assert.equal(await unread('notifications'), 0);
      const report = await h.store.reading.checkState({ repair: false });
      assert.deepEqual(
        [report.missingRows, report.strayRows, report.wrongRows, report.countDrift],
        [0, 0, 0, []],
      );
    });

    it("gets a notify rule's match, and the channel that follows the feed keeps it too", async () => {
      h.docs['/news.xml'] = { body: rss([item('old', 1)]), type: 'application/rss+xml' };
      const news = (await h.post({ action: 'channels', name: 'News' })).body['uid'] as string;
      await h.post({ action: 'follow', channel: news, url: h.url('/news.xml') });
      await h.poll(h.url('/news.xml'));
      await h.store.rules.add({ query: 'fresh', action: 'notify' }, h.clock.now().toISOString());
      h.docs['/news.xml'] = {
        body: rss([item('old', 1), item('fresh', 2, { title: 'A fresh story' })]),
        type: 'application/rss+xml',
      };
      await h.poll(h.url('/news.xml'));
      const names = (await notifications()).map((entry) => entry.name);
      assert.ok(names.includes('A fresh story'), JSON.stringify(names));
      const newsItems = (await h.get({ action: 'timeline', channel: news })).body['items'] as Item[];
      assert.equal(newsItems.length, 2);
    });
  });
}
