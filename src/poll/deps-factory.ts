import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { fetchFeed } from '../fetch/index.js';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import type { PollDeps } from './deps.js';
import type { PollHooks } from './hooks.js';
import { createIconFetch } from './icon-fetch.js';
import { IconLookups } from './icon-lookups.js';
import { createPreparer, type Preparer } from './parse-pool.js';

/** A worker id unique to this process: host, pid and a random tail. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The poller's dependencies for a real run: the real fetcher and clock, a pool of parse workers, and
 * background icon lookups unless TIDINGS_FEED_ICONS is false (whoever closes the app closes them).
 */
export function createPollDeps(
  store: Store,
  config: Config,
  log: Logger,
  hooks: PollHooks = {},
  preparer: Preparer = createPreparer(config.parseWorkers, config.parseTimeoutMs),
): PollDeps {
  const deps: PollDeps = {
    store,
    config,
    hooks,
    log,
    workerId: newWorkerId(),
    now: () => new Date(),
    fetch: (request) => fetchFeed(request),
    preparer,
  };
  if (config.feedIcons !== false) deps.icons = new IconLookups(deps, { fetch: createIconFetch(config) });
  return deps;
}
