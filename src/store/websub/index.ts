// The store's websub area (issue 26): each feed's WebSub subscription, for the poller's push support.

export * from './types.js';
export { WebSubscriptions } from './websub.js';
