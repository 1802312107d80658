// The front door of src/store/sqlite/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).

export { openSqliteStore } from './dialect.js';
