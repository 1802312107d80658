// The front door of src/store/entries/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).

export { Entries } from './entries.js';
export { PollWriter } from './group-commit.js';
export { pollRows } from './poll-writes.js';
