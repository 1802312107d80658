// PostgreSQL: opening a store on it, and the event relay over LISTEN/NOTIFY (loaded only for postgres: URLs).

export { openPostgresStore } from './dialect.js';
export { openPgEventRelay } from './notify.js';
