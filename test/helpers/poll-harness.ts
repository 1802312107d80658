import type { Config } from '../../src/config.js';
import { fetchFeed } from '../../src/fetch/index.js';
import { silentLogger } from '../../src/log.js';
import type { PollDeps } from '../../src/poll/deps.js';
import type { PollHooks } from '../../src/poll/hooks.js';
import { type IconLookupSettings, IconLookups } from '../../src/poll/icon-lookups.js';
import { inProcessPreparer } from '../../src/poll/parse-pool.js';
import type { Store } from '../../src/store/index.js';

/** A clock the test moves by hand. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
  set(iso: string): void;
}

export function testClock(start = '2026-03-01T12:00:00.000Z'): TestClock {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms) {
      t += ms;
    },
    set(iso) {
      t = Date.parse(iso);
    },
  };
}

export const TEST_CONFIG: Config = {
  databaseUrl: 'sqlite::memory:',
  pollIntervalSeconds: 3600,
  allowPrivateAddresses: true,
  concurrency: 8,
  perHostConcurrency: 2,
  timeoutMs: 2_000,
  maxBodyBytes: 1024 * 1024,
  // the feeds of the tests name sites on the internet (example.com): no icon lookups there
  feedIcons: false,
};

/**
 * Poller dependencies with the real fetcher (against a local server), a test clock and a quiet log; with
 * `feedIcons: true` also background icon lookups (`deps.icons`: wait with idle(), end with close()).
 */
export function pollDeps(
  store: Store,
  clock: TestClock,
  options: {
    hooks?: PollHooks;
    config?: Partial<Config>;
    workerId?: string;
    icons?: IconLookupSettings;
  } = {},
): PollDeps {
  const deps: PollDeps = {
    store,
    config: { ...TEST_CONFIG, ...options.config },
    hooks: options.hooks ?? {},
    log: silentLogger,
    workerId: options.workerId ?? 'test-worker',
    now: clock.now,
    fetch: (request) => fetchFeed(request),
    preparer: inProcessPreparer,
  };
  if (deps.config.feedIcons === true) deps.icons = new IconLookups(deps, options.icons);
  return deps;
}

/** An RSS 2.0 document with these items. */
export function rss(
  items: { guid?: string; title?: string; link?: string; description?: string; pubDate?: string }[],
  extra = '',
): string {
  const body = items
    .map((item) => {
      const parts = [
        item.guid !== undefined ? `<guid isPermaLink="false">${item.guid}</guid>` : '',
        item.title !== undefined ? `<title>${item.title}</title>` : '',
        item.link !== undefined ? `<link>${item.link}</link>` : '',
        item.description !== undefined ? `<description>${item.description}</description>` : '',
        item.pubDate !== undefined ? `<pubDate>${item.pubDate}</pubDate>` : '',
      ];
      return `<item>${parts.join('')}</item>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>Test feed</title><link>https://example.com/</link>${extra}\n${body}\n</channel></rss>\n`;
}
