import type { StoredToken } from '../store/index.js';
import { TOKEN_SCOPES } from '../store/index.js';
import { type App, withApp } from './app.js';
import { textTable } from './table.js';
import { EXIT_USAGE, UserError } from './user-error.js';

const KNOWN_SCOPES: ReadonlySet<string> = new Set(TOKEN_SCOPES);

/** `tidings token create` (token-command.ts defines it). */
export async function runTokenCreate(opts: CreateOptions): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'token create' } },
    (app) => createToken(app, opts),
  );
}

/** `tidings token list` (token-command.ts defines it). */
export async function runTokenList(opts: {
  json?: boolean;
  user?: string;
  database?: string;
}): Promise<void> {
  const user = { name: opts.user, command: 'token list' };
  process.exitCode = await withApp({ database: opts.database, user }, async (app) => {
    const tokens = await app.store.accounts.listTokens();
    const json = `${JSON.stringify({ tokens: tokens.map(tokenJson) }, null, 2)}\n`;
    process.stdout.write(opts.json ? json : tokenTable(tokens));
    return 0;
  });
}

/** `tidings token revoke` (token-command.ts defines it). */
export async function runTokenRevoke(id: string, opts: { user?: string; database?: string }): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'token revoke' } },
    (app) => revokeToken(app, id),
  );
}

export interface CreateOptions {
  scope: string;
  label?: string;
  user?: string;
  database?: string;
}

/** Creates a token; prints a summary, then the token itself as the last line. Returns the exit code. */
async function createToken(app: App, opts: CreateOptions): Promise<number> {
  // Microsub's scopes are lower case: READ is read
  const scope = opts.scope
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((s) => s !== '')
    .join(' ');
  if (scope === '') throw new UserError('token: --scope names no scope', { exitCode: EXIT_USAGE });
  for (const s of scope.split(' '))
    if (!KNOWN_SCOPES.has(s)) process.stderr.write(`token: "${s}" is not a Microsub scope; kept anyway\n`);
  const { token: secret, stored } = await app.store.accounts.issueToken(
    { scope, ...(opts.label ? { label: opts.label } : {}) },
    new Date().toISOString(),
  );
  process.stderr.write('token: store it now; tidings keeps only its hash and cannot show it again\n');
  const label = opts.label ? ` for ${opts.label}` : '';
  process.stdout.write(`created token ${stored.id} with scope "${scope}"${label}\n`);
  process.stdout.write(`${secret}\n`);
  return 0;
}

async function revokeToken(app: App, id: string): Promise<number> {
  if (!/^\d+$/.test(id))
    throw new UserError(`token: revoke takes a token id (a number), not "${id.slice(0, 100)}"`, {
      exitCode: EXIT_USAGE,
    });
  const found = (await app.store.accounts.listTokens()).find((t) => String(t.id) === id);
  if (!found) throw new UserError(`token: no token ${id} (tidings token list shows them)`);
  await app.store.accounts.revokeToken(found.id, new Date().toISOString());
  process.stdout.write(`revoked token ${found.id}\n`);
  return 0;
}

function tokenJson(token: StoredToken): Record<string, unknown> {
  return {
    id: token.id,
    scope: token.scope,
    label: token.label ?? null,
    createdAt: token.createdAt,
    lastUsedAt: token.lastUsedAt ?? null,
    revokedAt: token.revokedAt ?? null,
  };
}

function tokenTable(tokens: StoredToken[]): string {
  if (tokens.length === 0) return 'no tokens yet: tidings token create\n';
  const rows = tokens.map((t) => [
    String(t.id),
    t.revokedAt ? `revoked ${day(t.revokedAt)}` : 'active',
    t.scope,
    t.label ?? '',
    day(t.createdAt),
    t.lastUsedAt ? day(t.lastUsedAt) : 'never',
  ]);
  return textTable(['id', 'state', 'scope', 'label', 'created', 'last used'], rows);
}

function day(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}
