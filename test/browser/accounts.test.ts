// Two people on one tidings, as each sees it in Chromium (issue 24): bob signs in through the form with
// his name and sees his own channel, its count and his name in the navigation, nothing of ann's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { setUserPassword } from '../../src/auth/index.js';
import type { Store } from '../../src/store/index.js';
import { CHROMIUM_SKIP, openBrowser } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';
import { type ReaderSite, signInAndFollow, startReaderSite } from './reader-site.js';

const BOB_PASSWORD = 'bob reads the news';

describe('two users in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let live: LiveServer;
  let site: ReaderSite;
  let bobStore: Store;

  before(async () => {
    [live, site] = await Promise.all([startLiveServer(), startReaderSite()]);
    const now = new Date();
    // ann takes over user 1, whose password the live server set; bob is added beside her
    await live.store.users.add({ name: 'ann', isAdmin: true }, now.toISOString());
    const bob = await live.store.users.add({ name: 'bob', isAdmin: false }, now.toISOString());
    bobStore = live.store.forUser(bob.id);
    await setUserPassword(bobStore, BOB_PASSWORD, now, { N: 1024 });
    browser = await openBrowser();
    const ann = await browser.newPage();
    await signInAndFollow(ann, live.url, PASSWORD, [{ url: site.news, channel: 'Ann reads' }], 'ann');
    await ann.close();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await live?.close();
  });

  it("shows bob his channel, its count and his name, and nothing of ann's", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(8000);
    const page = await context.newPage();
    await signInAndFollow(page, live.url, BOB_PASSWORD, [{ url: site.other, channel: 'Bob reads' }], 'bob');
    await page.goto(`${live.url}/all`);
    const [channel] = (await bobStore.reading.channelSummaries()).filter((ch) => ch.name === 'Bob reads');
    assert.ok(channel && channel.unread > 0);
    const sidebar = (await page.textContent('#sidebar')) ?? '';
    assert.match(sidebar, /Bob reads/);
    assert.doesNotMatch(sidebar, /Ann reads/);
    assert.equal(await page.textContent(`[data-count="channel:${channel.uid}"]`), String(channel.unread));
    assert.equal(await page.textContent(`[data-count="all"]`), String(channel.unread));
    assert.equal(await page.textContent('.topnav .nav-user'), 'bob');
    assert.equal(await page.locator('.topnav a[href="/admin/users"]').count(), 0);
    // the navigation, with its new links, still fits a phone
    const widths = (await page.evaluate(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    )) as number[];
    assert.ok(widths[0]! <= widths[1]!, `page is ${widths[0]} px wide in a ${widths[1]} px window`);
    await context.close();
  });
});
