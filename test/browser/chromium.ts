import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium: playwright cannot download its own browser here. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here (they skip with it), or false. */
export const CHROMIUM_SKIP: string | false = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests`;

/** The arguments every Chromium of the tests starts with (scripts/run-tests.mjs uses the same). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

/**
 * A browser for one test file: the Chromium that scripts/run-tests.mjs started once for the whole run
 * (its endpoint in TIDINGS_TEST_BROWSER_WS), or, for a file run on its own, one launched here. Closing it
 * closes this file's contexts and, when connected, leaves the shared Chromium running.
 */
export function openBrowser(): Promise<Browser> {
  const endpoint = process.env['TIDINGS_TEST_BROWSER_WS'];
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

// `npm run screenshots` (scripts/screenshots.mjs) sets this; the tests take no screenshots otherwise, so
// that a test run neither spends time on them nor rewrites the tracked docs/screenshots/.
const SHOTS_DIR = process.env['TIDINGS_SCREENSHOTS_DIR'];

/** True when this run takes screenshots (`npm run screenshots`). */
export const takesScreenshots = SHOTS_DIR !== undefined && SHOTS_DIR !== '';

/** Saves `target` as <name>.png in TIDINGS_SCREENSHOTS_DIR; does nothing when that is not set. */
export async function screenshot(target: Page | Locator, name: string, fullPage = false): Promise<void> {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  const path = join(SHOTS_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage });
  else await target.screenshot({ path });
}
