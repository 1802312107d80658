// A follower's own title for a feed (issue 24: each person names the feeds they follow) is the feed's
// name wherever they read its entries: channel pages, All unread, saved, search, Microsub and the apps,
// as it is in the sidebar; another follower of the feed sees the feed's own title.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { appFeeds } from '../../src/reading/index.js';
import type { Store } from '../../src/store/index.js';
import { storeBackends } from '../helpers/temp-store.js';
import { openTwoUsers, type TwoUsers } from '../helpers/two-users.js';

const BOB_TITLE = 'BOBONLY title for shared';

for (const backend of storeBackends()) {
  describe(`a follower's own feed title (${backend.name})`, { skip: backend.skip }, () => {
    let t: TwoUsers;
    before(async () => {
      t = await openTwoUsers(backend);
    });
    after(async () => {
      await t.h.close();
      await backend.cleanup();
    });

    /** The feed titles of the shared feed's entries in every list of entries the person reads. */
    async function titlesSeen(store: Store, channelId: number): Promise<Record<string, string[]>> {
      const shared = t.shared.id;
      const titles = (entries: readonly { feed: { id: number; title?: string | undefined } }[]) => [
        ...new Set(entries.filter((e) => e.feed.id === shared).map((e) => e.feed.title ?? '')),
      ];
      const page = { limit: 50 };
      return {
        timeline: titles((await store.reading.timeline({ channelId, ...page })).entries),
        refs: titles((await store.reading.timelineRefs({ channelId, ...page })).refs),
        byId: titles(await store.reading.entriesById(channelId, t.shared.entries)),
        allUnread: titles((await store.reading.allUnread(page)).entries),
        search: titles((await store.reading.search({ query: 'Shared', ...page })).entries),
        apps: titles(
          (await store.sync.entries(t.shared.entries)).map((e) => ({
            feed: { id: e.feedId, title: e.feed.title },
          })),
        ),
      };
    }

    it('names the feed as the follower did, and as the feed does for everyone else', async () => {
      const bob = await titlesSeen(t.bob.store, t.bob.channel.id);
      const ann = await titlesSeen(t.ann.store, t.ann.channel.id);
      for (const [list, seen] of Object.entries(bob)) assert.deepEqual(seen, [BOB_TITLE], `bob's ${list}`);
      for (const [list, seen] of Object.entries(ann))
        assert.deepEqual(seen, ['Shared Feed'], `ann's ${list}`);
    });

    it('keeps the title in a second channel that follows the feed, for its rows and the apps', async () => {
      // a second channel, after the first, follows the shared feed: it takes bob's title
      const later = await t.bob.store.channels.create('BOBONLY Later');
      await t.bob.store.channels.subscribe(later.id, t.shared.id, t.h.clock.now().toISOString());
      const view = await appFeeds(t.bob.store);
      const listed = view.feeds.find((feed) => feed.id === t.shared.id);
      assert.equal(listed?.title, BOB_TITLE);
      const items = await t.bob.store.sync.entries(t.shared.entries);
      assert.deepEqual([...new Set(items.map((e) => e.feed.title))], [BOB_TITLE]);
      const rows = await t.bob.store.reading.timeline({ channelId: later.id, limit: 50 });
      assert.deepEqual([...new Set(rows.entries.map((e) => e.feed.title))], [BOB_TITLE]);
    });
  });
}
