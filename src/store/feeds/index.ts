// The front door of src/store/feeds/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).
export { Feeds } from './feeds.js';
export { Heartbeats } from './heartbeats.js';
export { FeedIcons } from './icons.js';
export { Polling } from './polling.js';
