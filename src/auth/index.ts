// The front door of src/auth/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).
export {
  apiUser,
  checkApiCredentials,
  checkApiToken,
  issueApiToken,
  setApiPassword,
  upgradeFeverKeyStorage,
} from './api-credentials.js';
export { apiPasswordLogin, feverKeyLogin, Logins, ownerLogin } from './logins.js';
export {
  hashPassword,
  PASSWORD_SETTING,
  SESSIONS_NOT_BEFORE_SETTING,
  verifyPassword,
} from './password-hash.js';
export { LoginLimiter } from './rate-limit.js';
