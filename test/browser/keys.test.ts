// The keyboard in every reading view, in Chromium (issue 22): `?` lists the keys that work in the view,
// and each key it lists does what the help says: `v` opened nothing from the list, All unread's `r` did
// nothing. Views: river, list, one feed, an entry page, All unread, Saved, search.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Channel } from '../../src/model/stored.js';
import { CHROMIUM_SKIP, openBrowser } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';
import { type ReaderSite, signInAndFollow, startReaderSite } from './reader-site.js';

/** A reading view: where it is, the keys its help must list, and whether it shows one entry. */
interface View {
  name: string;
  path: () => Promise<string>;
  keys: string[];
  mode?: 'river' | 'list';
  entryPage?: boolean;
}

describe('the keyboard in every reading view, in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let live: LiveServer;
  let site: ReaderSite;
  let news: Channel;
  const errors: string[] = [];

  const currentId = async () => Number(await page.getAttribute('article.is-current', 'data-entry'));
  const pageEntryId = async () => Number(await page.getAttribute('article[data-entry]', 'data-entry'));
  const stateOf = async (id: number) => {
    const [entry] = await live.store.sync.entries([id]);
    return { read: entry?.isRead, saved: entry?.isSaved, link: entry?.url };
  };
  /** Every entry unread again and one saved, so that each view starts alike. */
  async function reset() {
    const now = new Date().toISOString();
    for (const channel of await live.store.channels.list()) {
      const { entries } = await live.store.reading.timeline({ channelId: channel.id, limit: 100 });
      await live.store.reading.markRead(
        channel.id,
        entries.map((e) => e.id),
        false,
        now,
      );
    }
    const { entries } = await live.store.reading.timeline({ channelId: news.id, limit: 100 });
    await live.store.sync.setSaved(
      entries.map((e) => e.id),
      false,
      now,
    );
    await live.store.sync.setSaved([entries[1]?.id ?? 0, entries[2]?.id ?? 0], true, now);
  }
  const setMode = (mode: 'river' | 'list') =>
    context.addCookies([{ name: 'tidings_mode', value: mode, url: live.url }]);
  const open = async (view: View) => {
    await setMode(view.mode ?? 'river');
    await page.goto(`${live.url}${await view.path()}`);
  };

  async function listedKeys(): Promise<string[]> {
    await page.keyboard.press('?');
    await page.waitForSelector('[data-help]:not([hidden])');
    const keys = await page.$$eval('[data-help] [data-key]', (rows) =>
      rows.filter((row) => !row.hasAttribute('hidden')).map((row) => row.getAttribute('data-key') ?? ''),
    );
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-help][hidden]', { state: 'attached' });
    return keys;
  }

  // What each key must do, checked on the page as the view left it; o and r leave the view.
  async function checkMoves(view: View) {
    if (view.entryPage) {
      const first = page.url();
      await page.keyboard.press('j');
      await page.waitForURL((url) => url.href !== first);
      assert.match(page.url(), /\/e\/\d+/, `${view.name}: j goes to the next entry`);
      await page.keyboard.press('k');
      await page.waitForURL(first);
      return;
    }
    const ids = await page.$$eval('[data-timeline] article[data-entry]', (all) =>
      all.map((a) => Number(a.getAttribute('data-entry'))),
    );
    await page.keyboard.press('j');
    assert.equal(await currentId(), ids[0], `${view.name}: j selects the first entry`);
    await page.keyboard.press('j');
    assert.equal(await currentId(), ids[1], `${view.name}: j moves down`);
    await page.keyboard.press('k');
    assert.equal(await currentId(), ids[0], `${view.name}: k moves up`);
  }

  async function checkToggles(view: View) {
    const id = view.entryPage ? await pageEntryId() : await currentId();
    const article = `article[data-entry="${id}"]`;
    const before = await stateOf(id);
    await page.keyboard.press('m');
    await page.waitForSelector(before.read ? `${article}:not(.is-read)` : `${article}.is-read`);
    assert.equal((await stateOf(id)).read, !before.read, `${view.name}: m`);
    await page.keyboard.press('m');
    await page.waitForSelector(before.read ? `${article}.is-read` : `${article}:not(.is-read)`);
    await page.keyboard.press('s');
    await page.waitForSelector(`${article} [data-save-label][aria-pressed="${!before.saved}"]`);
    assert.equal((await stateOf(id)).saved, !before.saved, `${view.name}: s`);
    await page.keyboard.press('s');
    await page.waitForSelector(`${article} [data-save-label][aria-pressed="${Boolean(before.saved)}"]`);
    assert.equal((await stateOf(id)).saved, Boolean(before.saved));
  }

  async function checkOriginal(view: View) {
    const id = view.entryPage ? await pageEntryId() : await currentId();
    const popup = context.waitForEvent('page');
    await page.keyboard.press('v');
    const opened = await popup;
    await opened.waitForURL(/\/story\//);
    assert.equal(opened.url(), (await stateOf(id)).link, `${view.name}: v opens the original`);
    await opened.close();
    await page.waitForSelector(`article[data-entry="${id}"].is-read`);
    assert.equal((await stateOf(id)).read, true, `${view.name}: v marks it read`);
  }

  async function checkMarkAll(view: View) {
    await page.keyboard.press('Shift+A');
    await page.waitForSelector('[data-undo]');
    assert.match((await page.textContent('[data-undo]')) ?? '', /entr(y|ies) marked read/, view.name);
    await page.click('[data-undo] button');
    await page.waitForSelector('.flash:has-text("unread again")');
  }

  async function checkOpen(view: View) {
    await page.keyboard.press('j');
    const id = await currentId();
    await page.keyboard.press('o');
    await page.waitForURL(new RegExp(`/e/${id}(\\?|$)`));
    assert.equal(await pageEntryId(), id, `${view.name}: o opens the entry`);
  }

  async function checkRefresh(view: View) {
    await page.keyboard.press('r');
    await page.waitForURL(/\/refresh\/[\w-]+$/);
    // done: the page stops reloading itself, which would cut into the next test's navigation
    await page.waitForSelector('[data-refresh="done"]');
    assert.ok(view.keys.includes('r'));
  }

  before(async () => {
    [live, site] = await Promise.all([startLiveServer(), startReaderSite()]);
    browser = await openBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await signInAndFollow(page, live.url, PASSWORD, [
      { url: site.news, channel: 'News' },
      { url: site.other, channel: 'News' },
    ]);
    news = (await live.store.channels.list()).find((c) => c.name === 'News') as Channel;
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await live?.close();
  });

  const channelKeys = ['j', 'o', 'v', 'm', 's', 'A', 'r', '?'];
  const views: View[] = [
    { name: 'river', path: async () => `/c/${news.uid}`, keys: channelKeys },
    { name: 'list', path: async () => `/c/${news.uid}`, keys: channelKeys, mode: 'list' },
    {
      name: 'one feed',
      path: async () => `/c/${news.uid}?feed=${(await live.store.feeds.findByUrl(site.other))?.id}`,
      keys: channelKeys,
    },
    {
      name: 'entry page',
      path: async () => {
        const { entries } = await live.store.reading.timeline({ channelId: news.id, limit: 1 });
        return `/c/${news.uid}/e/${entries[0]?.id}`;
      },
      keys: ['j', 'v', 'm', 's', '?'],
      entryPage: true,
    },
    // a refresh is a channel's: All unread, Saved and search offer none
    {
      name: 'All unread (list)',
      path: async () => '/all',
      keys: ['j', 'o', 'v', 'm', 's', 'A', '?'],
      mode: 'list',
    },
    { name: 'Saved', path: async () => '/saved', keys: ['j', 'o', 'v', 'm', 's', '?'] },
    { name: 'search', path: async () => '/search?q=hat', keys: ['j', 'o', 'v', 'm', 's', '?'] },
  ];

  for (const view of views) {
    it(`lists in ${view.name} the keys that work there, and each does what it says`, async () => {
      await reset();
      await open(view);
      const keys = await listedKeys();
      assert.deepEqual(keys, view.keys);
      await checkMoves(view);
      if (keys.includes('m')) await checkToggles(view);
      if (keys.includes('v')) await checkOriginal(view);
      if (keys.includes('A')) await checkMarkAll(view);
      if (keys.includes('o')) {
        await open(view);
        await checkOpen(view);
      }
      if (keys.includes('r')) {
        await open(view);
        await checkRefresh(view);
      }
      assert.deepEqual(errors, []);
    });
  }
});
