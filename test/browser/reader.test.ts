// The everyday reader in Chromium (issue 16): the list of titles -> an entry -> next, per-feed view and
// counts, undo of mark all read, an audio enclosure, a YouTube-style entry's thumbnail. `npm run
// screenshots` saves the list, the entry page and the sidebar, light and dark, in docs/screenshots/ for
// the README.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Channel } from '../../src/model/stored.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { rss } from '../helpers/poll-harness.js';
import { startFixtures } from '../web/fixtures.js';
import { podcastFeed, youtubeFeed } from '../web/media-fixtures.js';
import { CHROMIUM_SKIP, openBrowser, screenshot, takesScreenshots } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';

// a 1x1 PNG: the "video thumbnail" served by the local media site
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkqGf4DwAEhQGA0lMiVQAAAABJRU5ErkJggg==',
  'base64',
);

describe('the reader in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let page: Page;
  let live: LiveServer;
  let fixtures: Awaited<ReturnType<typeof startFixtures>>;
  let media: TestServer;
  const errors: string[] = [];

  const channelNamed = async (name: string) =>
    (await live.store.channels.list()).find((c) => c.name === name) as Channel;
  // light and dark, as prefers-color-scheme asks
  const shots = async (name: string, target: Page | ReturnType<Page['locator']> = page) => {
    if (!takesScreenshots) return;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(target, `${name}-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };

  async function follow(url: string, channel: string, isNew: boolean) {
    await page.goto(`${live.url}/subscriptions`);
    await page.fill('input[name="url"]', url);
    await page.click('text=Find feeds');
    await page.waitForSelector('.candidate');
    if (isNew) {
      await page.selectOption('.candidate select[name="channel"]', '');
      await page.fill('.candidate input[name="new_channel"]', channel);
    } else {
      await page.selectOption('.candidate select[name="channel"]', { label: channel });
    }
    await page.click('.candidate button:has-text("Follow")');
    await page.waitForSelector('.flash');
  }

  before(async () => {
    [live, fixtures] = await Promise.all([startLiveServer(), startFixtures()]);
    media = await startServer({
      '/yt.xml': (_req, res) =>
        send(res, 200, youtubeFeed(`${media.url}/thumb.png`), { 'content-type': 'application/atom+xml' }),
      '/pod.xml': (_req, res) =>
        send(res, 200, podcastFeed(media.url), { 'content-type': 'application/rss+xml' }),
      '/thumb.png': (_req, res) => send(res, 200, PIXEL, { 'content-type': 'image/png' }),
      '/cjk.xml': (_req, res) =>
        send(
          res,
          200,
          rss([
            {
              guid: 'cjk1',
              title: '上海世博五卷',
              link: `${media.url}/cjk1`,
              description: '世博会的历史记录',
            },
          ]),
          { 'content-type': 'application/rss+xml; charset=utf-8' },
        ),
    });
    browser = await openBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${live.url}/login`);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/subscriptions$/);
    await follow(fixtures.feedUrl, 'News', true);
    await follow(`${fixtures.url}/second.xml`, 'News', false);
    await follow(`${media.url}/yt.xml`, 'Media', true);
    await follow(`${media.url}/pod.xml`, 'Media', false);
    await follow(`${media.url}/cjk.xml`, 'Media', false);
  });
  after(async () => {
    await browser?.close();
    await media?.close();
    await fixtures?.close();
    await live?.close();
  });

  it('reads from the list: o opens the entry on its page (read), j goes to the next, and the mode stays', async () => {
    const news = await channelNamed('News');
    await page.goto(`${live.url}/c/${news.uid}`);
    await page.click('button[data-mode-switch]');
    await page.waitForSelector('[data-mode="list"] article.row');
    assert.equal(await page.locator('article.row').count(), 26);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.waitForSelector('article.row.is-current');
    await page.evaluate('window.scrollTo(0, 0)');
    await shots('list');
    await page.keyboard.press('o');
    await page.waitForSelector('[data-entry-page-view]');
    assert.equal(await page.textContent('h1.entry-title'), 'Story 1');
    const story1 = Number(await page.getAttribute('article[data-entry]', 'data-entry'));
    assert.equal((await live.store.reading.entriesById(news.id, [story1]))[0]?.isRead, true);
    await shots('entry');
    await page.keyboard.press('j');
    await page.waitForFunction(`document.querySelector('h1.entry-title')?.textContent === 'Story 2'`);
    await page.keyboard.press('k');
    await page.waitForFunction(`document.querySelector('h1.entry-title')?.textContent === 'Story 1'`);
    await page.click('a[data-back]');
    await page.waitForSelector('[data-mode="list"] article.row.is-read');
    // a phone: one column, nothing wider than the screen
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 390);
    await screenshot(page, 'list-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(errors, []);
  });

  it('shows each feed with its unread count in the sidebar and reads one feed alone', async () => {
    const news = await channelNamed('News');
    const second = await live.store.feeds.findByUrl(`${fixtures.url}/second.xml`);
    const counts = await live.store.channels.listSubscriptionRefs();
    const main = await live.store.feeds.findByUrl(fixtures.feedUrl);
    const mainCount = counts.find((c) => c.channelId === news.id && c.feedId === main?.id)?.unread;
    assert.equal(mainCount, 23);
    const mainLink = page.locator(`.feeds-list a[data-feed="${main?.id}"]`);
    assert.equal(await mainLink.locator('[data-unread]').textContent(), '23');
    await shots('sidebar', page.locator('aside.sidebar'));
    await page.click(`.feeds-list a[data-feed="${second?.id}"]`);
    await page.waitForSelector('h1 .source-name');
    assert.equal(await page.locator('article[data-entry]').count(), 1);
    assert.match((await page.textContent('article[data-entry]')) ?? '', /Second feed story/);
    assert.equal(await page.getAttribute(`.feeds-list a[data-feed="${second?.id}"]`, 'aria-current'), 'page');
  });

  it('marks all read with shift+A and undoes exactly that with the Undo button', async () => {
    const news = await channelNamed('News');
    await page.goto(`${live.url}/c/${news.uid}`);
    const unread = async () =>
      (await live.store.reading.timeline({ channelId: news.id, limit: 100, unreadOnly: true })).entries.map(
        (e) => e.id,
      );
    const before = await unread();
    assert.equal(before.length, 24);
    await page.keyboard.press('Shift+A');
    await page.waitForSelector('[data-undo]');
    assert.match((await page.textContent('[data-undo]')) ?? '', /24 entries marked read\./);
    assert.deepEqual(await unread(), []);
    await page.click('[data-undo] button');
    await page.waitForSelector('.flash:has-text("Marked 24 entries unread again.")');
    assert.deepEqual(await unread(), before);
    assert.equal(await page.locator(`a[data-channel="${news.uid}"] [data-unread]`).textContent(), '24');
  });

  it("plays a podcast's audio enclosure and shows a YouTube entry's thumbnail and description", async () => {
    const channel = await channelNamed('Media');
    await page.goto(`${live.url}/c/${channel.uid}`);
    await page.click('button[data-mode-switch]');
    await page.waitForSelector('[data-mode="river"]');
    const audio = page.locator('audio[controls]');
    assert.equal(await audio.getAttribute('src'), `${media.url}/ep1.mp3`);
    assert.equal(await audio.getAttribute('preload'), 'none');
    assert.match(
      (await page.textContent('figure[data-media="audio"] figcaption')) ?? '',
      /1:02:03 · 11\.8 MB/,
    );
    const thumbnail = page.locator('.media-thumbnail img');
    assert.equal(await thumbnail.getAttribute('src'), `${media.url}/thumb.png`);
    await thumbnail.scrollIntoViewIfNeeded();
    await page.waitForFunction(`document.querySelector('.media-thumbnail img').naturalWidth === 1`);
    assert.match(
      (await page.textContent('article[data-entry]:has(.media-thumbnail)')) ?? '',
      /Planks, glue and patience/,
    );
  });

  it('finds a CJK entry by a substring of its title and highlights it', async () => {
    await page.fill('.sidebar input[name="q"]', '世博');
    await page.press('.sidebar input[name="q"]', 'Enter');
    await page.waitForSelector('.search-results article[data-entry]');
    assert.equal(await page.locator('.search-results article[data-entry]').count(), 1);
    assert.equal(await page.textContent('.search-results h2 mark'), '世博');
    assert.match((await page.textContent('.search-results h2')) ?? '', /上海世博五卷/);
  });
});
