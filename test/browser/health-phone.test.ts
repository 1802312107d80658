// The feed-health list at a phone's width (issue 16): every feed a card, nothing scrolls sideways, and
// the GET filters work without JavaScript. `npm run screenshots` saves
// test-results/screenshots/health-phone.png.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_SKIP, openBrowser, screenshot } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';

describe('feed health at 390 px in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let page: Page;
  let live: LiveServer;

  before(async () => {
    live = await startLiveServer();
    const now = new Date().toISOString();
    for (let i = 0; i < 60; i++) {
      const feed = await live.store.feeds.add(
        `https://a-rather-long-host-name-${i}.example/feeds/all.atom.xml`,
        now,
      );
      await live.store.feeds.update(feed.id, {
        title: i % 2 === 0 ? `Feed ${i}` : null,
        status: i % 5 === 0 ? 'fetch_error' : 'ok',
        message:
          i % 5 === 0
            ? 'HTTP 503 Service Unavailable after 30 s: the server asked us to come back later'
            : null,
        errorCount: i % 5 === 0 ? 2 : 0,
        lastSuccessAt: now,
      });
    }
    browser = await openBrowser();
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    await page.goto(`${live.url}/feeds`);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${live.url}/feeds`);
  });
  after(async () => {
    await browser?.close();
    await live?.close();
  });

  it('shows cards without sideways scrolling, and filters by status without JavaScript', async () => {
    // an admin's view of every feed of the instance: nobody follows these
    await page.goto(`${live.url}/feeds?all=1`);
    // A string: the test's TypeScript has no DOM types.
    const widths = (await page.evaluate(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    )) as number[];
    assert.ok(widths[0]! <= widths[1]!, `page is ${widths[0]} px wide in a ${widths[1]} px window`);
    assert.equal(await page.isVisible('table.health thead'), false);
    assert.equal(await page.locator('tr[data-feed]').count(), 50);
    await screenshot(page, 'health-phone');
    await page.selectOption('select[name="status"]', 'fetch_error');
    await page.click('.health-filters button[type="submit"]');
    await page.waitForURL(/all=1&status=fetch_error/);
    assert.equal(await page.locator('tr[data-feed]').count(), 12);
    assert.equal(await page.locator('tr[data-health="ok"]').count(), 0);
  });
});
