// The store's feeds area: classes Feeds, FeedIcons, Heartbeats and Polling (claims, leases, rounds and
// the writing of a poll's outcome); store.ts composes them as store.feeds, .icons, .heartbeats, .polling.
export { Feeds } from './feeds.js';
export { Heartbeats } from './heartbeats.js';
export { FeedIcons } from './icons.js';
export { Polling } from './polling.js';
