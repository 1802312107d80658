#!/usr/bin/env node
// Renders src/web/static/icon.svg to the PNG icons of the web app manifest (192 and 512 px) with
// Debian's Chromium (playwright-core). Run once when the icon changes; the PNGs are committed.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = new URL('../src/web/static/', import.meta.url);
const svg = readFileSync(new URL('icon.svg', dir), 'utf8');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
for (const size of [192, 512]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const html = `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`;
  await page.setContent(html);
  await page.screenshot({ path: new URL(`icon-${size}.png`, dir).pathname, omitBackground: true });
  await page.close();
}
await browser.close();
