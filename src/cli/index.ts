// The front door of src/cli/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).
export { runCommand } from './program.js';
