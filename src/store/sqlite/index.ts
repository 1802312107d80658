// SQLite: opening a store on it, with its read threads and checkpoints (loaded only for sqlite: URLs).

export { openSqliteStore } from './dialect.js';
