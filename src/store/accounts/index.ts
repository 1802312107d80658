// The front door of src/store/accounts/: what code in other folders uses of it. Imports from another
// folder go through its index.ts (test/architecture.test.ts).

export { Accounts } from './accounts.js';
export { hashToken, newToken, TOKEN_SCOPES } from './token-secrets.js';
