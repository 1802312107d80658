// Accounts' front door: the users' web sign-in, password hashes, the apps' API credentials and the login
// limits (counted before each check, with a global cap on password checks), for the front ends and the CLI.
export {
  apiTokenUser,
  apiUser,
  checkApiCredentials,
  checkApiToken,
  issueApiToken,
  setApiPassword,
  upgradeFeverKeyStorage,
} from './api-credentials.js';
export {
  apiPasswordLogin,
  confirmPassword,
  feverKeyLogin,
  type LoginResult,
  Logins,
  type UserLoginOutcome,
  userLogin,
} from './logins.js';
export {
  hashPassword,
  PASSWORD_SETTING,
  SESSIONS_NOT_BEFORE_SETTING,
  verifyPassword,
} from './password-hash.js';
export {
  checkNewPassword,
  hasWebPassword,
  loginUser,
  setUserPassword,
  signOutSessions,
  type WebUser,
  webUser,
} from './web-users.js';
