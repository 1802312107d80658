// The store's channels area: class Channels (channels and subscriptions) and the channel picker's order.
export { pickerOrder } from './channel-choice.js';
export { Channels, type FollowerSettings, keepPaused } from './channels.js';
