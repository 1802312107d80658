// Moved to src/auth/ (the sync APIs limit failed logins too); kept here so that web imports stay as they are.
export { LoginLimiter } from '../auth/index.js';
