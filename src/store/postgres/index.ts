// The front door of src/store/postgres/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).

export { openPostgresStore } from './dialect.js';
export { openPgEventRelay } from './notify.js';
