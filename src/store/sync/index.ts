// The store's sync area: class Sync, the queries of the Google Reader and Fever APIs (store.sync).
export { Sync } from './sync.js';
