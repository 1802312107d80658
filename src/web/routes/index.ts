// The front door of src/web/routes/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).
export { registerLogin, registerLogout } from './auth.js';
export { registerChannels } from './channels.js';
export { registerEntryActions } from './entries.js';
export { registerHealth } from './health.js';
export { registerIcons } from './icons.js';
export { registerOpml } from './opml.js';
export { registerReader } from './reader.js';
export { registerRefresh } from './refresh.js';
export { registerSavedPages } from './saved.js';
export { registerSubscriptions } from './subscriptions.js';
export { registerTokens } from './tokens.js';
