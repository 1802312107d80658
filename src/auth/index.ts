// Accounts' front door: password hashes, the apps' API credentials and the login limits (counted before
// each check, with a global cap on password checks), for the front ends and the CLI.
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
