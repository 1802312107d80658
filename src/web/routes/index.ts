// The web UI's routes, one register function per page family; web/routes.ts mounts them all.
export { registerAccount } from './account.js';
export { registerAdmin } from './admin.js';
export { registerAlerts } from './alerts.js';
export { registerLogin, registerLogout } from './auth.js';
export { registerChannels } from './channels.js';
export { registerEntryActions } from './entries.js';
export { registerHealth } from './health.js';
export { registerIcons } from './icons.js';
export { registerOpml } from './opml.js';
export { registerReader } from './reader.js';
export { registerRefresh } from './refresh.js';
export { registerRules } from './rules.js';
export { registerSavedPages } from './saved.js';
export { registerSubscriptions } from './subscriptions.js';
export { registerTokens } from './tokens.js';
