// Unread counts that agree everywhere, read off the page in Chromium after every action (issue 22):
// after `m` the channel's count dropped while All unread and the feed's stayed stale, and `v` changed no
// count at all. After m, v, undo, mark all and save, in a channel, on All unread, on an entry page and in
// the list, every drawn number (All unread, each channel, each feed, Saved, the title's) must equal the
// server's, and the server's kept counts must equal a recount of the unread entries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Channel } from '../../src/model/stored.js';
import { CHROMIUM_SKIP, openBrowser } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';
import { type ReaderSite, signInAndFollow, startReaderSite } from './reader-site.js';

/** Counts by the key each is drawn under (`all`, `channel:UID`, `feed:UID:ID`), and Saved's. */
interface Counts {
  unread: Record<string, number>;
  saved: number;
  /** The count the title starts with, and the key of the count it repeats. */
  title?: { key: string; unread: number };
}

// Runs in the page (a string: this project's TypeScript has no DOM types). A count hidden at 0 reads 0.
const DRAWN = `(() => {
  const unread = {};
  for (const el of document.querySelectorAll('[data-count]'))
    unread[el.getAttribute('data-count')] = el.hidden || getComputedStyle(el).display === 'none' ? 0 : Number(el.textContent);
  const badge = document.querySelector('[data-saved-count]');
  const title = document.querySelector('title[data-title-count]');
  const shown = /^\\((\\d+)\\) /.exec(document.title);
  return {
    unread,
    saved: badge.hidden ? 0 : Number(badge.textContent),
    ...(title ? { title: { key: title.getAttribute('data-title-count'), unread: shown ? Number(shown[1]) : 0 } } : {}),
  };
})()`;

describe('unread counts after every action, in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let live: LiveServer;
  let site: ReaderSite;
  let news: Channel;
  let more: Channel;
  const errors: string[] = [];

  /** The server's counts, as the sidebar reads them, checked against a recount of unread entries. */
  async function serverCounts(): Promise<Omit<Counts, 'title'>> {
    const { store } = live;
    const [channels, refs] = await Promise.all([
      store.reading.channelSummaries(),
      store.channels.listSubscriptionRefs(),
    ]);
    const unread: Record<string, number> = { all: 0 };
    for (const ch of channels) {
      const recount = (await store.reading.timeline({ channelId: ch.id, limit: 500, unreadOnly: true }))
        .entries;
      assert.equal(ch.unread, recount.length, `${ch.name}'s kept count`);
      unread[`channel:${ch.uid}`] = ch.unread;
      for (const ref of refs.filter((r) => r.channelId === ch.id)) {
        assert.equal(ref.unread, recount.filter((e) => e.feedId === ref.feedId).length);
        unread[`feed:${ch.uid}:${ref.feedId}`] = ref.unread;
      }
    }
    // All unread counts each entry once, as its list shows it (a feed in two channels is not counted twice)
    unread['all'] = (await store.reading.allUnread({ limit: 500 })).entries.length;
    return { unread, saved: await store.sync.count({ savedOnly: true }) };
  }

  /** Every number the page draws equals the server's, and the title repeats the view's own. */
  async function agree(when: string) {
    const drawn = (await page.evaluate(DRAWN)) as Counts;
    const server = await serverCounts();
    assert.deepEqual({ unread: drawn.unread, saved: drawn.saved }, server, when);
    if (drawn.title) assert.equal(drawn.title.unread, server.unread[drawn.title.key], `${when}: the title`);
    return drawn;
  }

  const currentId = async () => Number(await page.getAttribute('article.is-current', 'data-entry'));

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
      { url: site.rtl, channel: 'More' },
    ]);
    const channels = await live.store.channels.list();
    news = channels.find((c) => c.name === 'News') as Channel;
    more = channels.find((c) => c.name === 'More') as Channel;
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await live?.close();
  });

  it('agrees in a channel after m, v, mark all, undo and save', async () => {
    await page.goto(`${live.url}/c/${news.uid}`);
    const start = await agree('on load');
    assert.equal(start.unread['all'], 11);
    assert.deepEqual(start.title, { key: `channel:${news.uid}`, unread: 9 });
    await page.keyboard.press('j');
    const first = await currentId();
    await page.keyboard.press('m');
    await page.waitForSelector(`article[data-entry="${first}"].is-read`);
    assert.equal((await agree('after m')).unread['all'], 10);
    await page.keyboard.press('m');
    await page.waitForSelector(`article[data-entry="${first}"]:not(.is-read)`);
    await agree('after m again');
    await page.keyboard.press('j');
    const second = await currentId();
    const popup = context.waitForEvent('page');
    await page.keyboard.press('v');
    await (await popup).close();
    await page.waitForSelector(`article[data-entry="${second}"].is-read`);
    assert.equal((await agree('after v')).unread[`channel:${news.uid}`], 8);
    await page.keyboard.press('Shift+A');
    await page.waitForSelector('[data-undo]');
    assert.equal((await agree('after mark all')).unread['all'], 2);
    await page.click('[data-undo] button');
    await page.waitForSelector('.flash:has-text("unread again")');
    assert.equal((await agree('after undo')).unread['all'], 10);
    await page.keyboard.press('j');
    await page.keyboard.press('s');
    await page.waitForSelector('article.is-current [data-save-label][aria-pressed="true"]');
    assert.equal((await agree('after s')).saved, 1);
    assert.deepEqual(errors, []);
  });

  it('agrees on All unread, on an entry page and in the list', async () => {
    await page.goto(`${live.url}/all`);
    await agree('All unread on load');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const id = await currentId();
    await page.keyboard.press('m');
    await page.waitForSelector(`article[data-entry="${id}"].is-read`);
    const drawn = await agree('All unread after m');
    assert.equal(drawn.title?.key, 'all');
    // an entry page marks its entry read as it opens, and m marks it unread again
    const [entry] = (await live.store.reading.timeline({ channelId: more.id, limit: 1, unreadOnly: true }))
      .entries;
    await page.goto(`${live.url}/c/${more.uid}/e/${entry?.id}`);
    await agree('entry page on load');
    await page.keyboard.press('m');
    await page.waitForSelector('article[data-entry]:not(.is-read)');
    await agree('entry page after m');
    await context.addCookies([{ name: 'tidings_mode', value: 'list', url: live.url }]);
    const other = (await live.store.feeds.findByUrl(site.other))?.id;
    await page.goto(`${live.url}/c/${news.uid}?feed=${other}`);
    assert.equal((await agree('one feed in the list')).title?.key, `feed:${news.uid}:${other}`);
    await page.keyboard.press('j');
    const row = await currentId();
    await page.keyboard.press('m');
    await page.waitForSelector(`article[data-entry="${row}"].is-read`);
    await agree('list after m');
    const popup = context.waitForEvent('page');
    await page.keyboard.press('j');
    await page.keyboard.press('v');
    await (await popup).close();
    await page.waitForSelector(`article[data-entry="${await currentId()}"].is-read`);
    await agree('list after v');
    await context.addCookies([{ name: 'tidings_mode', value: 'river', url: live.url }]);
    assert.deepEqual(errors, []);
  });
});
