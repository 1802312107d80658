// Moved to src/auth/ (the sync APIs check passwords too); kept here so that web imports stay as they are.
export {
  hashPassword,
  PASSWORD_SETTING,
  SESSIONS_NOT_BEFORE_SETTING,
  verifyPassword,
} from '../auth/index.js';
