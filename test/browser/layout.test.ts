// What the reader draws, measured in Chromium (issue 22): players with a box to press, every page at a
// phone's 390 px without sideways scrolling and with the article first, the list view one line per entry
// on a wide screen, no console error on any page (feed content carries inline styles), right-to-left
// entries laid out from the right. The feeds come from reader-site.ts, hard to lay out on purpose.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Channel } from '../../src/model/stored.js';
import { CHROMIUM_SKIP, openBrowser } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';
import { LONG_URL, type ReaderSite, signInAndFollow, startReaderSite } from './reader-site.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

describe('the reader as drawn in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let live: LiveServer;
  let site: ReaderSite;
  let reading: Channel;
  let media: Channel;
  const problems: string[] = [];

  const channel = async (name: string) =>
    (await live.store.channels.list()).find((c) => c.name === name) as Channel;
  const feedId = async (url: string) => (await live.store.feeds.findByUrl(url))?.id as number;
  const entryId = async (guid: string) => {
    const feeds = await live.store.feeds.list();
    for (const feed of feeds)
      for (const entry of await live.store.entries.listByFeed(feed.id, 50))
        if (entry.guid === guid) return entry.id;
    throw new Error(`no entry ${guid}`);
  };
  const box = async (selector: string): Promise<Box> => {
    const found = await page.locator(selector).first().boundingBox();
    assert.ok(found, `${selector} is drawn`);
    return found;
  };
  const setMode = (mode: 'river' | 'list') =>
    context.addCookies([{ name: 'tidings_mode', value: mode, url: live.url }]);

  /** Every kind of page the web UI has (GET), or only those the reading mode changes. */
  async function everyPage(mode: 'river' | 'list'): Promise<string[]> {
    const hard = await entryId('hard');
    const hardFeed = await feedId(site.hard);
    const timelines = [
      '/all',
      `/c/${reading.uid}`,
      `/c/${reading.uid}?feed=${hardFeed}`,
      `/c/${reading.uid}?unread=1`,
      `/c/${media.uid}`,
      '/saved',
    ];
    if (mode === 'list') return timelines;
    return [
      ...timelines,
      `/c/${reading.uid}/e/${hard}`,
      `/all/e/${await entryId('he')}`,
      `/saved/e/${hard}`,
      `/search?q=${encodeURIComponent('lighthouses')}`,
      `/search?q=story&channel=${reading.uid}`,
      '/subscriptions',
      `/subscriptions/${hardFeed}`,
      '/channels',
      '/feeds',
      `/feeds/${hardFeed}`,
      `/feeds/${await feedId(site.news)}`,
      `/c/${reading.uid}?feed=${await feedId(site.news)}`,
      '/opml',
      '/tokens',
      '/alerts',
      '/no-such-page',
    ];
  }

  before(async () => {
    [live, site] = await Promise.all([startLiveServer(), startReaderSite()]);
    browser = await openBrowser();
    context = await browser.newContext({ viewport: DESKTOP });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${page.url()}: ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    await signInAndFollow(page, live.url, PASSWORD, [
      { url: site.hard, channel: 'Reading' },
      { url: site.rtl, channel: 'Reading' },
      { url: site.news, channel: 'Reading' },
      { url: site.media, channel: 'Media' },
    ]);
    [reading, media] = [await channel('Reading'), await channel('Media')];
    // a feed titled with one unbroken word (a URL, as many feeds without a title get): the sidebar and
    // the health page's heading must wrap or cut it, not widen the page
    await live.store.channels.setFollowerSettings(await feedId(site.news), {
      title: `https://news.averylongdomainname-example.com/feeds/${'all-articles-'.repeat(4)}.atom`,
    });
    await live.store.sync.setSaved([await entryId('hard')], true, new Date().toISOString());
    // a destination with a long unbroken URL: the Alerts table must wrap it, not widen the page
    await live.store.notify.add(
      {
        kind: 'webhook',
        target: `https://hooks.example.org/${'tidings-alerts-'.repeat(8)}`,
        secret: 'a-long-secret',
      },
      new Date().toISOString(),
    );
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await live?.close();
  });

  it('draws the audio and video players with a box to press, as wide as the column allows', async () => {
    await setMode('river');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${live.url}/c/${media.uid}`);
      const content = await box('article[data-entry] .entry-body');
      const audio = await box('figure[data-media="audio"] audio');
      const video = await box('figure[data-media="video"] video');
      // Chromium's audio controls are 54 px high; 0 px (`height: auto`) drew nothing to press
      assert.ok(audio.height >= 30, `audio drawn ${audio.height} px high at ${viewport.width} px`);
      assert.ok(video.height >= 100, `video drawn ${video.height} px high at ${viewport.width} px`);
      for (const player of [audio, video]) {
        assert.ok(player.width >= Math.min(300, content.width) - 1, `player ${player.width} px wide`);
        assert.ok(player.x >= content.x - 1 && player.x + player.width <= content.x + content.width + 1);
      }
    }
    await page.setViewportSize(DESKTOP);
  });

  // One visit of every page serves both checks: the drawn width, and the console (CSP refusing a feed's
  // inline style was an error on every page that showed one).
  it('lays out every page at 390 px without sideways scrolling, the article first, and logs no error', async () => {
    await page.setViewportSize(PHONE);
    problems.length = 0;
    try {
      for (const mode of ['river', 'list'] as const) {
        await setMode(mode);
        for (const path of await everyPage(mode)) {
          await page.goto(`${live.url}${path}`);
          const drawn = (await page.evaluate(`({
            width: document.documentElement.scrollWidth,
            main: document.querySelector('main').getBoundingClientRect().top,
            sidebar: document.querySelector('aside.sidebar')?.getBoundingClientRect().top ?? null,
            entry: document.querySelector('main article[data-entry]')?.getBoundingClientRect().top ?? null,
          })`)) as { width: number; main: number; sidebar: number | null; entry: number | null };
          assert.ok(drawn.width <= PHONE.width, `${path} (${mode}) is ${drawn.width} px wide`);
          if (drawn.sidebar !== null)
            assert.ok(drawn.main < drawn.sidebar, `${path}: the sidebar comes first`);
          if (drawn.entry !== null)
            assert.ok(
              drawn.entry < PHONE.height * 0.6,
              `${path} (${mode}): the first entry starts at ${drawn.entry} px`,
            );
        }
      }
      // the feed with the one-word title: its row in the sidebar ends inside the screen, count and all
      await setMode('river');
      const news = await feedId(site.news);
      await page.goto(`${live.url}/c/${reading.uid}?feed=${news}`);
      const row = await box(`aside.sidebar a[data-feed="${news}"]`);
      const count = await box(`aside.sidebar a[data-feed="${news}"] .count`);
      assert.ok(row.x >= 0 && row.x + row.width <= PHONE.width, `the row ends at ${row.x + row.width} px`);
      assert.ok(count.width > 0 && count.x + count.width <= row.x + row.width, 'its count is in sight');
      // and the pages a form leads to: a refresh's progress, discovery's candidates
      const width = async (what: string) => {
        const drawn = Number(await page.evaluate('document.documentElement.scrollWidth'));
        assert.ok(drawn <= PHONE.width, `${what}: ${drawn} px wide`);
      };
      await page.goto(`${live.url}/c/${reading.uid}`);
      await page.click('form[data-action="refresh"] button');
      await page.waitForURL(/\/refresh\//);
      await width('a refresh');
      await page.goto(`${live.url}/subscriptions`);
      await page.fill('input[name="url"]', site.hard);
      await page.click('text=Find feeds');
      await page.waitForSelector('.candidate');
      await width('discovery');
      // the 404 page's own status is the one resource that may fail
      const own = `${live.url}/no-such-page: error: Failed to load resource: the server responded with a status of 404 (Not Found)`;
      assert.equal(problems.filter((p) => p === own).length, 1);
      assert.deepEqual(
        problems.filter((p) => p !== own),
        [],
      );
      // the hard entry's long URL, wide picture, table and pre block are there, inside the screen
      await setMode('river');
      await page.goto(`${live.url}/c/${reading.uid}/e/${await entryId('hard')}`);
      assert.match((await page.textContent('.entry-content')) ?? '', new RegExp(LONG_URL.slice(0, 40)));
      for (const selector of [
        '.entry-content img[alt="wide"]',
        '.entry-content table',
        '.entry-content pre',
        'h1.entry-title',
      ]) {
        const drawn = await box(selector);
        assert.ok(
          drawn.x >= 0 && drawn.x + drawn.width <= PHONE.width,
          `${selector} ends at ${drawn.x + drawn.width} px`,
        );
      }
    } finally {
      await setMode('river');
      await page.setViewportSize(DESKTOP);
    }
  });

  it('lists one line per entry at desktop width (title, source, time), and whole titles on a phone', async () => {
    await setMode('list');
    try {
      await page.goto(`${live.url}/c/${reading.uid}`);
      const rows = (await page.evaluate(`[...document.querySelectorAll('article.row')].map((row) => {
        const top = (selector) => row.querySelector(selector).getBoundingClientRect();
        const [title, source, time] = ['.row-title', '.row-source', 'time'].map(top);
        return { height: row.getBoundingClientRect().height, width: row.getBoundingClientRect().width,
          tops: [title.top, source.top, time.top], titleWidth: title.width, sourceWidth: source.width };
      })`)) as { height: number; width: number; tops: number[]; titleWidth: number; sourceWidth: number }[];
      assert.ok(rows.length >= 9);
      const lineHeight = 17 * 1.55;
      for (const row of rows) {
        assert.ok(row.height < 2 * lineHeight, `a row ${row.height} px high is more than one line`);
        assert.ok(
          Math.max(...row.tops) - Math.min(...row.tops) < lineHeight / 2,
          `not on one line: ${row.tops}`,
        );
        assert.ok(row.titleWidth > 40 && row.sourceWidth > 20);
      }
      await page.setViewportSize(PHONE);
      await page.goto(`${live.url}/c/${reading.uid}`);
      // no title is cut short: each is drawn whole, on as many lines as it needs
      const cut = await page.evaluate(`[...document.querySelectorAll('article.row .row-link')]
        .filter((link) => link.scrollWidth > link.clientWidth + 1 || link.querySelector('.row-title').scrollWidth > link.clientWidth + 1)
        .map((link) => link.textContent)`);
      assert.deepEqual(cut, []);
      const long = await box('article.row:has-text("A title with") .row-title');
      assert.ok(long.height > 3 * 16, `the long title is ${long.height} px high: not wrapped`);
    } finally {
      await setMode('river');
      await page.setViewportSize(DESKTOP);
    }
  });

  it('shows feed content without its inline styles, and the signed-out page without console errors', async () => {
    await setMode('river');
    await page.goto(`${live.url}/c/${reading.uid}?feed=${await feedId(site.hard)}`);
    assert.equal(await page.locator('.entry-content [style]').count(), 0);
    assert.ok((await page.locator('.entry-content p').count()) > 0);
    const signedOut = await browser.newPage();
    const messages: string[] = [];
    signedOut.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
    });
    await signedOut.goto(`${live.url}/login`);
    await signedOut.close();
    assert.deepEqual(messages, []);
  });

  it('lays out a right-to-left entry from the right, and the others from the left', async () => {
    await page.goto(`${live.url}/c/${reading.uid}`);
    const direction = (guid: string, selector: string) =>
      page.evaluate(
        `getComputedStyle(document.querySelector('article[data-entry="${guid}"] ${selector}')).direction`,
      );
    const [he, ar, hard] = [await entryId('he'), await entryId('ar'), await entryId('hard')];
    for (const id of [he, ar]) {
      assert.equal(await direction(String(id), '.entry-title'), 'rtl');
      assert.equal(await direction(String(id), '.entry-content'), 'rtl');
    }
    assert.equal(await direction(String(hard), '.entry-title'), 'ltr');
    assert.equal(await direction(String(hard), '.entry-content'), 'ltr');
    // the Hebrew paragraph ends at the right edge of the column
    const title = await box(`article[data-entry="${he}"] .entry-content p`);
    const body = await box(`article[data-entry="${he}"] .entry-content`);
    const text = (await page.evaluate(`(() => { const r = document.createRange();
      r.selectNodeContents(document.querySelector('article[data-entry="${he}"] .entry-content p'));
      const rect = r.getBoundingClientRect(); return rect.right; })()`)) as number;
    assert.ok(
      Math.abs(text - (body.x + body.width)) < 2,
      `the text ends at ${text}, the column at ${body.x + body.width}`,
    );
    assert.ok(title.width > 0);
    await setMode('list');
    await page.goto(`${live.url}/c/${reading.uid}`);
    assert.equal(await direction(String(he), '.row-title'), 'rtl');
    await setMode('river');
  });
});
