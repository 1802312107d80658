// The poller's front door: the scheduler and one feed's refresh (fetch, parse, store in one place), its
// deps, events, leases, icons and status words, for the CLI, the server, subscriptions and reading.

export { checkFollowUrl } from './check-url.js';
export type { PollDeps, PushAnswer, PushPort } from './deps.js';
export { createPollDeps } from './deps-factory.js';
export type { Discovery, FetchedFeed } from './discover.js';
export { discover } from './discover.js';
export { identifyEntries, inheritedAuthors, toNewEntry } from './entries.js';
export type { NewEntriesEvent } from './events.js';
export { PollEvents } from './events.js';
export type { PollHooks, StoredPoll } from './hooks.js';
export { combineHooks } from './hooks.js';
export { runPollLoop } from './loop.js';
export type { NextCheckExplained } from './next-check.js';
export { explainNextCheck } from './next-check.js';
export type { Preparer } from './parse-pool.js';
export { createPreparer } from './parse-pool.js';
export type { PollSummary } from './poller.js';
export { pollOnce } from './poller.js';
export { DEFAULT_ADAPTIVE_MAX, feedHealthAt, isSilent } from './scheduler.js';
export {
  CALLBACK_PREFIX,
  checkSignature,
  describePush,
  headerPushLinks,
  LEASE_SECONDS,
  type PushStatusJson,
  parseLinkHeader,
  pushStatusJson,
  signBody,
  WebSub,
} from './websub/index.js';
