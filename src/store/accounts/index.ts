// The store's accounts area: class Accounts (tokens, app passwords, settings) and token secrets.

export { Accounts } from './accounts.js';
export { hashToken, newToken, TOKEN_SCOPES } from './token-secrets.js';
