// The front door of src/opml/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).

export type { OpmlFeed } from './read.js';
export { readOpml } from './read.js';
export type { OpmlChannel } from './write.js';
export { writeOpml } from './write.js';
