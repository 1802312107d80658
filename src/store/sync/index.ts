// The front door of src/store/sync/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).
export { Sync } from './sync.js';
