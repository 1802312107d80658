// The front door of src/store/reading/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).

export { Filters } from './filters.js';
export { Reading } from './reading.js';
export { parseSearchQuery } from './search.js';
export { isSaved, loadEntriesWithFeeds } from './timeline.js';
