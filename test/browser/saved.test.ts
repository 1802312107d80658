// Saved (starred) entries in Chromium (issue 16): star with the s key and with the Save button, find
// them under Saved (the sidebar's count follows), unstar one there on its entry page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Channel } from '../../src/model/stored.js';
import { startFixtures } from '../web/fixtures.js';
import { CHROMIUM_SKIP, openBrowser } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';

describe('saved entries in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let page: Page;
  let live: LiveServer;
  let fixtures: Awaited<ReturnType<typeof startFixtures>>;
  let news: Channel;
  const errors: string[] = [];

  const savedIds = async () =>
    (await live.store.reading.savedEntries({ limit: 100 })).entries.map((e) => e.id);
  const pressed = (article: string) => page.getAttribute(`${article} [data-save-label]`, 'aria-pressed');

  before(async () => {
    [live, fixtures] = await Promise.all([startLiveServer(), startFixtures()]);
    browser = await openBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${live.url}/login`);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/subscriptions$/);
    await page.fill('input[name="url"]', fixtures.feedUrl);
    await page.click('text=Find feeds');
    await page.waitForSelector('.candidate');
    await page.selectOption('.candidate select[name="channel"]', '');
    await page.fill('.candidate input[name="new_channel"]', 'News');
    await page.click('.candidate button:has-text("Follow")');
    await page.waitForSelector('.flash');
    news = (await live.store.channels.list()).find((c) => c.name === 'News') as Channel;
  });
  after(async () => {
    await browser?.close();
    await fixtures?.close();
    await live?.close();
  });

  it('stars the current entry with s and another with its Save button; the sidebar counts them', async () => {
    await page.goto(`${live.url}/c/${news.uid}`);
    await page.keyboard.press('?');
    assert.match((await page.textContent('[data-help]')) ?? '', /save \(star\) the entry/);
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    const first = Number(await page.getAttribute('article.is-current', 'data-entry'));
    await page.keyboard.press('s');
    await page.waitForSelector('article.is-current [data-save-label][aria-pressed="true"]');
    assert.equal(await page.textContent('article.is-current [data-save-label]'), 'Saved');
    assert.deepEqual(await savedIds(), [first]);
    const second = Number(await page.getAttribute('article[data-entry]:nth-child(2)', 'data-entry'));
    await page.click(`article[data-entry="${second}"] [data-save-label]`);
    await page.waitForSelector(`article[data-entry="${second}"] [data-save-label][aria-pressed="true"]`);
    assert.deepEqual(await savedIds(), [second, first]);
    assert.equal(await page.textContent('[data-saved-count]'), '2');
    // still on the channel's page: the button worked in place
    assert.match(page.url(), new RegExp(`/c/${news.uid}$`));
    assert.deepEqual(errors, []);
  });

  it('finds them under Saved, the most recently saved first, and unstars one on its entry page', async () => {
    const [second, first] = await savedIds();
    await page.click('a[data-view="saved"]');
    await page.waitForSelector('[data-saved-view]');
    const listed = await page.$$eval('[data-saved-view] article[data-entry]', (articles) =>
      articles.map((a) => Number(a.getAttribute('data-entry'))),
    );
    assert.deepEqual(listed, [second, first]);
    assert.equal(await pressed(`article[data-entry="${second}"]`), 'true');
    // open the first (the most recently saved), then go to the next inside Saved
    await page.keyboard.press('j');
    await page.keyboard.press('o');
    await page.waitForURL(new RegExp(`/saved/e/${second}$`));
    await page.keyboard.press('j');
    await page.waitForURL(new RegExp(`/saved/e/${first}$`));
    await page.keyboard.press('s');
    await page.waitForSelector('[data-save-label][aria-pressed="false"]');
    assert.equal(await page.textContent('[data-save-label]'), 'Save');
    assert.equal(await page.textContent('[data-saved-count]'), '1');
    assert.deepEqual(await savedIds(), [second]);
    // and the button, on the other one
    await page.click('a[data-back]');
    await page.waitForSelector('[data-saved-view]');
    assert.equal(await page.locator('[data-saved-view] article[data-entry]').count(), 1);
    await page.click(`article[data-entry="${second}"] [data-save-label]`);
    await page.waitForSelector(`article[data-entry="${second}"] [data-save-label][aria-pressed="false"]`);
    assert.deepEqual(await savedIds(), []);
    assert.equal(await page.isHidden('[data-saved-count]'), true);
    await page.reload();
    await page.waitForSelector('[data-saved-view] .empty');
    assert.deepEqual(errors, []);
  });
});
