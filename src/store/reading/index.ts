// The store's reading area: class Reading (timelines, marks, counts, search, the doctor's check) and
// class Filters (mute and block rules); store.ts composes them as store.reading and store.filters.

export { Filters } from './filters.js';
export { Reading } from './reading.js';
export { matchingEntries, type ParsedSearch, parseSearchQuery } from './search.js';
export { isSaved, loadEntriesWithFeeds } from './timeline.js';
