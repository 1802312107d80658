// The store's rules area (issue 25): class Rules (each user's saved searches that act on new entries),
// and applyRules, run in a poll's transaction by the poll writes.

export { applyRules, type StoredNewEntry } from './apply.js';
export { MAX_RULE_QUERY_CHARS, Rules } from './rules.js';
export * from './types.js';
