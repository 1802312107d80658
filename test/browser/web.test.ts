// The web UI in a real browser (Debian's Chromium driven by playwright-core) against a real server:
// sign in, follow through discovery, read with the keyboard, reorder channels, import OPML, feed health,
// and a hostile feed that must not run anything. `npm run screenshots` saves its screenshots in
// test-results/screenshots/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Channel } from '../../src/model/stored.js';
import { startFixtures } from '../web/fixtures.js';
import { CHROMIUM_SKIP, openBrowser, screenshot } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';

describe('web UI in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let live: LiveServer;
  let fixtures: Awaited<ReturnType<typeof startFixtures>>;
  const dialogs: string[] = [];
  const errors: string[] = [];

  const shot = (name: string, fullPage = false) => screenshot(page, name, fullPage);
  const news = async () => (await live.store.channels.list()).find((c) => c.name === 'News') as Channel;

  before(async () => {
    [live, fixtures] = await Promise.all([startLiveServer(), startFixtures()]);
    browser = await openBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => errors.push(error.message));
  });
  after(async () => {
    await browser?.close();
    await fixtures?.close();
    await live?.close();
  });

  it('signs in with the password', async () => {
    await page.goto(`${live.url}/feeds`);
    assert.match(page.url(), /\/login\?next=%2Ffeeds$/);
    await shot('login');
    await page.fill('input[name="password"]', 'wrong password');
    await page.click('button[type="submit"]');
    await page.waitForSelector('.error');
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${live.url}/feeds`);
    assert.equal(await page.textContent('h1'), 'Feed health');
  });

  it('follows a site through discovery: paste the page URL, see the preview, follow', async () => {
    await page.goto(`${live.url}/subscriptions`);
    await page.fill('input[name="url"]', fixtures.pageUrl);
    await page.click('text=Find feeds');
    await page.waitForSelector('.candidate');
    assert.match((await page.textContent('.candidate')) ?? '', /Story 0[\s\S]*Story 4/);
    await shot('discover', true);
    await page.selectOption('.candidate select[name="channel"]', '');
    await page.fill('.candidate input[name="new_channel"]', 'News');
    await page.click('.candidate button:has-text("Follow")');
    await page.waitForSelector('article[data-entry]');
    assert.match((await page.textContent('.flash')) ?? '', /Following Test feed in News: 25 entries/);
    assert.equal(await page.locator('article[data-entry]').count(), 20);
  });

  it('reads with the keyboard: j/k move, m toggles read, v opens the original, ? shows help', async () => {
    const channel = await news();
    await page.goto(`${live.url}/c/${channel.uid}`);
    const entries = page.locator('article[data-entry]');
    const count = page.locator(`a[data-channel="${channel.uid}"] [data-unread]`);
    assert.equal(await count.textContent(), '25');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.waitForSelector('article[data-entry].is-current');
    assert.equal(await entries.nth(0).getAttribute('class'), 'entry is-current');
    await page.keyboard.press('m');
    await page.waitForSelector('article[data-entry].is-current.is-read');
    await page.locator(`a[data-channel="${channel.uid}"] [data-unread]`, { hasText: /^24$/ }).waitFor();
    const firstId = Number(await entries.nth(0).getAttribute('data-entry'));
    assert.equal((await live.store.reading.entriesById(channel.id, [firstId]))[0]?.isRead, true);
    await page.keyboard.press('m');
    await page.waitForSelector('article[data-entry].is-current:not(.is-read)');

    await page.keyboard.press('j');
    const popup = context.waitForEvent('page');
    await page.keyboard.press('v');
    const opened = await popup;
    await opened.waitForLoadState();
    assert.match(opened.url(), /\/story\/1$/);
    await opened.close();
    const secondId = Number(await entries.nth(1).getAttribute('data-entry'));
    assert.equal((await live.store.reading.entriesById(channel.id, [secondId]))[0]?.isRead, true);
    // the page marks it read once its own request is answered: wait for that rather than racing it
    await page.waitForSelector(`article[data-entry="${secondId}"].is-read`);
    assert.equal(await count.textContent(), '24');

    await page.keyboard.press('?');
    await page.waitForSelector('[data-help]:not([hidden])');
    await shot('keyboard-help');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-help][hidden]', { state: 'attached' });
  });

  it('marks read inline with the buttons, marks all read up to an entry, and refreshes with r', async () => {
    const channel = await news();
    const third = page.locator('article[data-entry]').nth(2);
    await third.locator('button[data-read-label]').click();
    await page.waitForSelector('article[data-entry]:nth-child(3).is-read');
    assert.equal(await third.locator('button[data-read-label]').textContent(), 'Mark unread');
    await third.locator('button[data-read-label]').click();
    await page.waitForSelector('article[data-entry]:nth-child(3):not(.is-read)');
    await page.evaluate('window.scrollTo(0, 0)');
    await shot('reader');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('reader-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('reader-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page
      .locator('article[data-entry]')
      .nth(5)
      .locator('button:has-text("Mark read up to here")')
      .click();
    await page.waitForSelector('.flash');
    const { entries } = await live.store.reading.timeline({ channelId: channel.id, limit: 30 });
    assert.ok(entries.slice(5).every((e) => e.isRead));
    await page.keyboard.press('r');
    await page.waitForSelector('.flash:has-text("Refreshed 1 feed:")');
  });

  it('reorders channels with the move buttons', async () => {
    await page.goto(`${live.url}/channels`);
    for (const name of ['Later', 'Podcasts']) {
      await page.fill('input[name="name"][placeholder="Name"]', name);
      await page.click('button:has-text("Create")');
      await page.waitForSelector(`[data-channel-row] input[value="${name}"]`);
    }
    // the move buttons post and reload the page: wait for the order they should produce
    const order = (names: string[]) =>
      page.waitForFunction(
        `[...document.querySelectorAll('[data-channel-row] input[name="name"]')].map((i) => i.value).join('|') === ${JSON.stringify(names.join('|'))}`,
      );
    await order(['Notifications', 'News', 'Later', 'Podcasts']);
    await page.click('button[aria-label="Move Podcasts up"]');
    await order(['Notifications', 'News', 'Podcasts', 'Later']);
    await page.click('button[aria-label="Move News down"]');
    await order(['Notifications', 'Podcasts', 'News', 'Later']);
    await shot('channels');
    const sidebar = await live.store.channels.list();
    assert.deepEqual(
      sidebar.sort((a, b) => a.position - b.position).map((c) => c.name),
      ['Notifications', 'Podcasts', 'News', 'Later'],
    );
  });

  it('imports OPML and shows the progress until it is done', async () => {
    await page.goto(`${live.url}/opml`);
    const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>x</title></head><body><outline text="Imported">
      <outline text="Second" xmlUrl="${fixtures.url}/second.xml"/><outline text="Broken" xmlUrl="${fixtures.url}/broken.xml"/>
      </outline></body></opml>`;
    await page.setInputFiles('input[type="file"]', {
      name: 'from-elsewhere.opml',
      mimeType: 'text/x-opml',
      buffer: Buffer.from(opml),
    });
    await page.click('button:has-text("Import")');
    await page.waitForURL(/\/opml\/jobs\//);
    await page.waitForSelector('[data-job="done"]', { timeout: 15000 });
    assert.match(
      (await page.textContent('.job-phase')) ?? '',
      /Finished: followed 2 of 2 feeds \(2 new\); not followed: 0 already followed, 0 failed/,
    );
    await shot('opml-import');
    await page.goto(`${live.url}/subscriptions`);
    assert.match((await page.textContent('main')) ?? '', /Imported[\s\S]*Broken feed/);
    await shot('subscriptions', true);
  });

  it("shows a broken feed's diagnostics on the health page", async () => {
    await page.goto(`${live.url}/feeds`);
    const row = page.locator('tr[data-health="parse_error"]');
    assert.match((await row.textContent()) ?? '', /Broken feed[\s\S]*parse error/);
    // the health list draws its heartbeats as one path per status (work/scale's HeartbeatStrip)
    assert.ok((await page.locator('svg.spark path:not(.hb-none)').count()) >= 3);
    await shot('health');
    await row.locator('a').first().click();
    await page.waitForSelector('.diagnostics');
    const text = (await page.textContent('.diagnostics')) ?? '';
    assert.match(text, /bare "&"/);
    assert.match(text, /entry index 1, field title, line 4, column 18/);
    assert.match(text, /entry index 0, field pubDate, line 3/);
    // the raw line of the document, as the poller kept it
    const excerpts = await page.locator('pre.excerpt code').allTextContents();
    assert.ok(excerpts.includes('<item><title>Two & more</title></item>'), excerpts.join(' | '));
    await shot('feed-diagnostics', true);
  });

  it('shows a hostile feed without running anything from it', async () => {
    const consoleMessages: string[] = [];
    page.on('console', (message) => consoleMessages.push(`${message.type()}: ${message.text()}`));
    dialogs.length = 0;
    errors.length = 0;
    await page.goto(`${live.url}/subscriptions`);
    await page.fill('input[name="url"]', `${fixtures.url}/hostile.xml`);
    await page.click('text=Find feeds');
    await page.click('.candidate button:has-text("Follow")');
    await page.waitForSelector('article[data-entry] .entry-content');
    const url = page.url();
    await page.hover('.entry-content div');
    await page.hover('.entry-content svg >> nth=0', { force: true }).catch(() => undefined);
    await page.waitForTimeout(300);
    await shot('hostile');
    assert.deepEqual(dialogs, [], 'no alert, confirm or prompt');
    assert.deepEqual(errors, [], 'no uncaught exception');
    assert.equal(page.url(), url, 'no meta refresh or redirect');
    // Runs in the page (a string: this project's TypeScript has no DOM types).
    const state = await page.evaluate(`({
      pwned: window.__pwned,
      scripts: document.scripts.length,
      feedScripts: document.querySelectorAll('.entry-content script, .entry-content [onerror], .entry-content [onload]').length,
      jsLinks: [...document.querySelectorAll('a')].filter((a) => a.protocol === 'javascript:').length,
      frames: document.querySelectorAll('iframe, object, embed, base, meta[http-equiv]').length,
    })`);
    assert.deepEqual(state, { pwned: undefined, scripts: 1, feedScripts: 0, jsLinks: 0, frames: 0 });
    // Only the browser's own reports may appear: CSP refusing the feed's inline style, failed image loads.
    const unexpected = consoleMessages.filter(
      (m) => !/Content Security Policy|Failed to load resource/.test(m),
    );
    assert.deepEqual(unexpected, []);
    await page.click('#js-link');
    await page.waitForTimeout(200);
    assert.deepEqual(dialogs, []);
  });
});
