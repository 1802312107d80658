// The store's entries area: class Entries, and the group commit that writes polls that come together
// in one transaction (PollWriter, used by store.polling).

export { Entries } from './entries.js';
export { PollWriter } from './group-commit.js';
export { pollRows } from './poll-writes.js';
