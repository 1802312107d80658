// The store's notify area (issue 25): class Notify (each user's destinations, the instance's outbox), and
// the feed-health alerts written in a poll's transaction (writeFeedAlerts, used by the poll writes).

export { ALERT_GUID_PREFIX } from './alert-entries.js';
export { type PolledHealth, stepFeedAlerts, writeFeedAlerts } from './feed-alerts.js';
export { Notify } from './notify.js';
export { enqueueMessages, eventsOf, takes } from './outbox.js';
export * from './types.js';
