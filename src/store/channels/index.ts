// The front door of src/store/channels/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).
export { pickerOrder } from './channel-choice.js';
export { Channels } from './channels.js';
