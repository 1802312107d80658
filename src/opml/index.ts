// OPML's front door: read an outline into folders and feeds, write one from the subscriptions.

export type { OpmlFeed } from './read.js';
export { readOpml } from './read.js';
export type { OpmlChannel } from './write.js';
export { writeOpml } from './write.js';
