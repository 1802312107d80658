import type { Kysely, Selectable } from 'kysely';
import type { StoredToken } from './accounts.js';
import { runTemplate } from './query-template.js';
import type { Database, TokenTable } from './schema.js';
import { toIso } from './values.js';

/** The token a row holds; NULL columns become absent fields. */
function tokenFromRow(row: Selectable<TokenTable>): StoredToken {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    scope: row.scope,
    ...(row.label === null ? {} : { label: row.label }),
    createdAt: row.created_at,
    ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
  };
}

/** Stores a new token; a hash already stored: the database's unique constraint fails the call. */
export async function createToken(
  db: Kysely<Database>,
  token: { tokenHash: string; scope: string; label?: string },
  now: string,
): Promise<StoredToken> {
  const row = await db
    .insertInto('tokens')
    .values({
      token_hash: token.tokenHash,
      scope: token.scope,
      label: token.label ?? null,
      created_at: toIso(now, 'now'),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return tokenFromRow(row);
}

/**
 * Returns the token with this hash unless it was revoked. Compiled once (query-template.ts): every
 * Microsub request asks it.
 */
export async function findToken(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  tokenHash: string,
): Promise<StoredToken | undefined> {
  const { rows } = await runTemplate<Selectable<TokenTable>>(db, `${dialect}:find-token`, [tokenHash], () =>
    db.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null),
  );
  const row = rows[0];
  return row === undefined ? undefined : tokenFromRow(row);
}

/** Returns every token, revoked ones included, oldest first. */
export async function listTokens(db: Kysely<Database>): Promise<StoredToken[]> {
  const rows = await db.selectFrom('tokens').selectAll().orderBy('id').execute();
  return rows.map(tokenFromRow);
}

/** Revokes a token; revoking it again keeps the first revocation time. */
export async function revokeToken(db: Kysely<Database>, id: number, now: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ revoked_at: toIso(now, 'now') })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Records when a token was last used. */
export async function touchToken(db: Kysely<Database>, id: number, now: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ last_used_at: toIso(now, 'now') })
    .where('id', '=', id)
    .execute();
}
