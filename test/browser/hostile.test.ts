// Issue 12 in a real browser (Debian's Chromium driven by playwright-core): every hostile vector family
// of test/fixtures/hostile/vectors/ must run nothing, submit nothing and navigate nowhere, also where the
// sanitized HTML is shown without tidings' Content-Security-Policy, as Microsub clients and sync apps
// show it. The channel page is loaded with CSP bypassed, and each vector's lines are also shown alone
// in a blank page. Chromium's own HTML parser then says which elements, namespaces and attributes the
// sanitized markup really makes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sanitizeHtml } from '../../src/html/index.js';
import { startVectorsServer } from '../helpers/hostile-feed.js';
import { FORBIDDEN_ELEMENTS, hostileMarkup, readVectors } from '../helpers/hostile-html.js';
import { CHROMIUM_SKIP, openBrowser } from './chromium.js';
import { type LiveServer, PASSWORD, startLiveServer } from './live-server.js';

// Runs in the page (strings: this project's TypeScript has no DOM types). Lists what the browser
// built under `root` that is active or in the wrong namespace: forbidden elements, HTML inside SVG or
// MathML (namespace confusion), on* attributes, script URLs in any attribute, links that are not
// http(s), mailto or the page itself (an empty href, which the sanitizer leaves where a script URL was).
const INSPECT = `(([rootSelector, forbidden]) => {
  const HTML = 'http://www.w3.org/1999/xhtml';
  const found = [];
  const scriptUrl = /^(javascript|vbscript|livescript|mocha|data):/;
  const rasterData = /^data:image\\/(png|jpeg|gif|webp|avif|bmp)[;,]/;
  for (const root of document.querySelectorAll(rootSelector)) {
    for (const el of root.querySelectorAll('*')) {
      const name = el.localName.toLowerCase();
      const where = el.namespaceURI === HTML ? name : el.namespaceURI.split('/').pop() + ':' + name;
      if (forbidden.includes(name) && !(name === 'title' && el.namespaceURI !== HTML)) found.push('<' + where + '>');
      if (el.namespaceURI === HTML && name === 'title') found.push('<title>');
      const parent = el.parentElement;
      if (parent && parent.namespaceURI !== HTML && el.namespaceURI !== parent.namespaceURI)
        found.push(where + ' inside ' + parent.localName);
      for (const attr of el.attributes) {
        const url = attr.value.replace(/[\\t\\n\\r]/g, '').replace(/^[\\x00-\\x20]+/, '').toLowerCase();
        if (attr.name.toLowerCase().startsWith('on')) found.push(where + ' ' + attr.name);
        else if (scriptUrl.test(url) && !(name === 'img' && attr.name === 'src' && rasterData.test(url)))
          found.push(where + ' ' + attr.name + '=' + attr.value);
      }
      if (name === 'a' && el.namespaceURI === HTML && el.hasAttribute('href') &&
          el.getAttribute('href') !== '' && !['http:', 'https:', 'mailto:'].includes(el.protocol)) found.push('a href=' + el.href);
    }
  }
  return found;
})`;

// Fires what a reader's mouse and keyboard would at every element under the selector (inline handlers
// run for dispatched events), without following links: plain Events have no activation behaviour.
const POKE = `((rootSelector) => {
  let count = 0;
  for (const root of document.querySelectorAll(rootSelector)) {
    for (const el of root.querySelectorAll('*')) {
      for (const type of ['mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup', 'click', 'focus', 'focusin', 'keydown', 'toggle', 'animationstart', 'transitionend', 'beginEvent', 'endEvent']) {
        el.dispatchEvent(new Event(type, { bubbles: true }));
      }
      count++;
    }
  }
  return count;
})`;

describe('hostile vectors in Chromium', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let live: LiveServer;
  let vectors: Awaited<ReturnType<typeof startVectorsServer>>;
  const dialogs: string[] = [];
  const errors: string[] = [];
  const popups: string[] = [];

  before(async () => {
    [live, vectors] = await Promise.all([startLiveServer(), startVectorsServer()]);
    browser = await openBrowser();
    // Without tidings' CSP: what a Microsub client or sync app that shows the HTML would get.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on('popup', (opened) => popups.push(opened.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => errors.push(error.message));
  });
  after(async () => {
    await browser?.close();
    await vectors?.close();
    await live?.close();
  });

  const state = () =>
    page.evaluate(`({
      pwned: window.__pwned,
      clobbered: typeof document.querySelector !== 'function' || typeof document.getElementById !== 'function',
      inlineScriptsRun: typeof window.alert !== 'function',
      forms: document.querySelectorAll('.entry-content form, .entry-content input, .entry-content button, .entry-content select, .entry-content textarea').length,
    })`);

  it('signs in and follows the feed of vectors', async () => {
    await page.goto(`${live.url}/feeds`);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${live.url}/feeds`);
    await page.goto(`${live.url}/subscriptions`);
    await page.fill('input[name="url"]', vectors.feedUrl);
    await page.click('text=Find feeds');
    await page.click('.candidate button:has-text("Follow")');
    await page.waitForSelector('article[data-entry] .entry-content');
    assert.equal(await page.locator('article[data-entry]').count(), readVectors().length);
  });

  it('runs nothing, shows no form and goes nowhere when the entries are hovered and clicked', async () => {
    const url = page.url();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    dialogs.length = 0;
    errors.length = 0;
    // Real pointer events on every element outside a link (a link may go where it says: that is
    // what links are for; where they point is checked below).
    const targets = page.locator('.entry-content *:not(a):not(a *)');
    const count = await targets.count();
    assert.ok(count > 30, `only ${count} elements to poke`);
    for (let i = 0; i < count; i++) {
      const target = targets.nth(i);
      await target.hover({ force: true, timeout: 1000 }).catch(() => undefined);
      await target.click({ force: true, timeout: 1000, noWaitAfter: true }).catch(() => undefined);
    }
    const poked = await page.evaluate(`${POKE}('.entry-content')`);
    assert.ok(Number(poked) > count);
    await page.keyboard.press('Tab');
    assert.deepEqual(dialogs, [], 'no alert, confirm or prompt');
    assert.deepEqual(errors, [], 'no uncaught exception');
    assert.deepEqual(popups, [], 'no window opened');
    assert.deepEqual(navigations, [], 'no navigation, meta refresh or redirect');
    assert.equal(page.url(), url);
    assert.deepEqual(await state(), {
      pwned: undefined,
      clobbered: false,
      inlineScriptsRun: false,
      forms: 0,
    });
  });

  it('parses every entry into allowed elements, in the namespace meant, with no script URL', async () => {
    const found = await page.evaluate(
      `${INSPECT}(${JSON.stringify(['.entry-content', [...FORBIDDEN_ELEMENTS]])})`,
    );
    assert.deepEqual(found, []);
    const frames = await page.evaluate(
      `document.querySelectorAll('iframe, object, embed, base, meta[http-equiv]').length`,
    );
    assert.equal(frames, 0);
  });

  it('runs nothing from any vector line shown alone in a blank page without CSP', async () => {
    const blank = await context.newPage();
    // nothing here may reach the network: a vector's image or frame on a host that does not resolve held
    // the page's load event past the timeout under load; refused at once, its onerror runs at once too
    await blank.route('**/*', (route) => route.abort());
    const blankDialogs: string[] = [];
    blank.on('dialog', (dialog) => {
      blankDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      // The harness sees script run: the same page given an unsanitized handler and a hover target.
      await blank.setContent(
        `<div id="c"><img src="x" onerror="window.__pwned='control';alert('control')"><b onmouseover="window.__hovered=1">b</b></div>`,
      );
      await blank.evaluate(`${POKE}('#c')`);
      assert.deepEqual(await blank.evaluate('[window.__pwned, window.__hovered]'), ['control', 1]);
      assert.deepEqual(blankDialogs.splice(0), ['control']);
      await blank.evaluate('delete window.__pwned');
      for (const vector of readVectors()) {
        for (const input of [vector.html, ...vector.lines]) {
          const html = sanitizeHtml(input, { baseUrl: 'https://feed.example/' });
          await blank.setContent(`<!doctype html><html><body><div id="c">${html}</div></body></html>`);
          await blank.evaluate(`${POKE}('#c')`);
          const found = await blank.evaluate(
            `${INSPECT}(${JSON.stringify(['#c', [...FORBIDDEN_ELEMENTS]])})`,
          );
          const pwned = await blank.evaluate('window.__pwned');
          assert.deepEqual(
            { found, pwned, dialogs: blankDialogs },
            { found: [], pwned: undefined, dialogs: [] },
            `${input}\n=> ${html}`,
          );
          assert.equal(blank.url(), 'about:blank');
        }
      }
    } finally {
      await blank.close();
    }
  });

  it('reads random sanitized markup in the namespaces the sanitizer meant, and runs none of it', async () => {
    // Chromium's parser is the judge of mutation XSS: 1,500 random markups made of vector pieces,
    // sanitized, each in a div of its own (sanitized output closes what it opens).
    const inputs = fc.sample(hostileMarkup(), { numRuns: 1500, seed: 34 });
    const outputs = inputs.map((html) => sanitizeHtml(html));
    const blank = await context.newPage();
    // nothing here may reach the network: a vector's image or frame on a host that does not resolve held
    // the page's load event past the timeout under load; refused at once, its onerror runs at once too
    await blank.route('**/*', (route) => route.abort());
    const blankDialogs: string[] = [];
    blank.on('dialog', (dialog) => {
      blankDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      await blank.setContent(
        `<!doctype html><html><body>${outputs.map((html) => `<div class="fz">${html}</div>`).join('\n')}</body></html>`,
      );
      assert.equal(await blank.evaluate(`document.querySelectorAll('body > div.fz').length`), outputs.length);
      await blank.evaluate(`${POKE}('.fz')`);
      const found = await blank.evaluate(`${INSPECT}(${JSON.stringify(['.fz', [...FORBIDDEN_ELEMENTS]])})`);
      const pwned = await blank.evaluate('window.__pwned');
      assert.deepEqual({ found, pwned, dialogs: blankDialogs }, { found: [], pwned: undefined, dialogs: [] });
    } finally {
      await blank.close();
    }
  });
});
