// "All unread" counts each entry once (issue 22): the web UI's count was the sum of the channels' counts,
// so a feed followed in two channels was counted twice while the All unread list showed its entries once.
// The count the web draws (the sidebar, the title, an action's JSON counts) must equal the number of
// entries the All unread list shows, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, PASSWORD_SETTING } from '../../src/auth/password-hash.js';
import type { Channel } from '../../src/model/stored.js';
import { openSyncHarness, rssItem, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Client, PASSWORD, signedIn } from '../web/harness.js';

for (const backend of storeBackends()) {
  describe(`All unread counts each entry once (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let web: Client;
    let news: Channel;
    let more: Channel;
    let shared: number[];
    let solo: number[];

    /** The entries the All unread list shows, paged through as the web pages it. */
    async function listed(): Promise<number[]> {
      const ids: number[] = [];
      let after: string | undefined;
      do {
        const page = await h.store.reading.allUnread({ limit: 2, ...(after ? { after } : {}) });
        ids.push(...page.entries.map((entry) => entry.id));
        after = page.after;
      } while (after !== undefined);
      return ids;
    }

    /** The All unread count the web page draws in its sidebar and title. */
    async function drawn(): Promise<{ sidebar: number; title: number; listedOnPage: number }> {
      const page = await web.get('/all');
      assert.equal(page.status, 200);
      const sidebar = /data-count="all"[^>]*>(\d+)</.exec(page.text);
      const title = /<title[^>]*>\((\d+)\) /.exec(page.text);
      const articles = new Set([...page.text.matchAll(/data-entry="(\d+)"/g)].map((m) => m[1]));
      return {
        sidebar: Number(sidebar?.[1] ?? -1),
        title: Number(title?.[1] ?? 0),
        listedOnPage: articles.size,
      };
    }

    async function agree(when: string): Promise<number> {
      const ids = await listed();
      assert.equal(new Set(ids).size, ids.length, `${when}: the list shows each entry once`);
      assert.equal(await h.store.reading.allUnreadCount(), ids.length, `${when}: the store's count`);
      const page = await drawn();
      assert.deepEqual(
        page,
        { sidebar: ids.length, title: ids.length, listedOnPage: ids.length },
        `${when}: the page`,
      );
      return ids.length;
    }

    before(async () => {
      h = await openSyncHarness(backend);
      await h.store.accounts.setUserSetting(PASSWORD_SETTING, await hashPassword(PASSWORD, { N: 1024 }));
      h.serve(
        '/shared.xml',
        [0, 1, 2, 3].map((i) => rssItem(`s${i}`, i)),
      );
      h.serve(
        '/solo.xml',
        [10, 11, 12].map((i) => rssItem(`o${i}`, i)),
      );
      const followed = await h.follow('/shared.xml', 'News');
      news = followed.channel;
      more = (await h.follow('/solo.xml', 'More')).channel;
      // the shared feed in a second channel: its entries are unread in both
      await h.store.channels.subscribe(more.id, followed.feedId, h.clock.now().toISOString());
      shared = await h.entryIds(followed.feedId);
      solo = await h.entryIds(
        (await h.store.channels.listSubscriptions(more.id)).find((s) => s.feedId !== followed.feedId)
          ?.feedId ?? -1,
      );
      web = await signedIn(h.app);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('counts a feed followed in two channels once, as the list shows it', async () => {
      assert.equal(shared.length, 4);
      assert.equal(solo.length, 3);
      const summaries = await h.store.reading.channelSummaries();
      assert.equal(
        summaries.reduce((sum, ch) => sum + ch.unread, 0),
        11,
        'the channels count 4 + 7',
      );
      assert.equal(await agree('at first'), 7);
    });

    it('keeps counting an entry read in one channel while the other still shows it unread', async () => {
      const now = h.clock.now().toISOString();
      await h.store.reading.markRead(news.id, [shared[0] as number], true, now);
      assert.equal(await agree('read in News only'), 7);
      await h.store.reading.removeEntries(more.id, [shared[0] as number], now);
      assert.equal(await agree('read in News, removed from More'), 6);
      await h.store.reading.markRead(more.id, [shared[1] as number, solo[0] as number], true, now);
      assert.equal(await agree('read in More only'), 5);
    });

    it('answers an action with the same count in its JSON, and after opening from All unread', async () => {
      const res = await web.post(
        `/c/${news.uid}/entries/${shared[2]}/read`,
        { read: '1' },
        { accept: 'application/json' },
      );
      const body = JSON.parse(res.text) as { counts: { unread: Record<string, number> } };
      const count = await agree('after marking read in News (still unread in More)');
      assert.equal(count, 5);
      assert.equal(body.counts.unread['all'], count);
      assert.equal((await web.get(`/all/e/${shared[3]}`)).status, 200);
      assert.equal(await agree('after opening an entry of the shared feed from All unread'), 4);
    });
  });
}
