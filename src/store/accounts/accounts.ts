import type { Selectable } from 'kysely';
import { StoreArea } from '../area.js';
import { runTemplate } from '../query-template.js';
import type { TokenTable } from '../schema.js';
import type { StoredApiToken, StoredToken } from '../types.js';
import { toIso } from '../values.js';
import { hashToken, newToken } from './token-secrets.js';

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

/**
 * The owner's account: Microsub tokens issued by tidings itself, Google Reader API sessions, and settings
 * (password hash, secrets). Tokens are stored by the SHA-256 of their secret only.
 */
export class Accounts extends StoreArea {
  /**
   * Creates a Microsub token: 32 random bytes, base64url. Only its hash is stored, so the returned
   * `token` is the one chance to show it.
   */
  async issueToken(
    request: { scope: string; label?: string },
    now: string,
  ): Promise<{ token: string; stored: StoredToken }> {
    const token = newToken();
    const stored = await this.createToken({ tokenHash: hashToken(token), ...request }, now);
    return { token, stored };
  }

  /** Stores a new token; a hash already stored: the database's unique constraint fails the call. */
  async createToken(
    token: { tokenHash: string; scope: string; label?: string },
    now: string,
  ): Promise<StoredToken> {
    const db = this.db;
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
  async findToken(tokenHash: string): Promise<StoredToken | undefined> {
    const db = this.db;
    const dialect = this.dialect;
    const { rows } = await runTemplate<Selectable<TokenTable>>(db, `${dialect}:find-token`, [tokenHash], () =>
      db.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null),
    );
    const row = rows[0];
    return row === undefined ? undefined : tokenFromRow(row);
  }

  /** Returns every token, revoked ones included, oldest first. */
  async listTokens(): Promise<StoredToken[]> {
    const db = this.db;
    const rows = await db.selectFrom('tokens').selectAll().orderBy('id').execute();
    return rows.map(tokenFromRow);
  }

  /** Revokes a token; revoking it again keeps the first revocation time. */
  async revokeToken(id: number, now: string): Promise<void> {
    const db = this.db;
    await db
      .updateTable('tokens')
      .set({ revoked_at: toIso(now, 'now') })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Records when a token was last used. */
  async touchToken(id: number, now: string): Promise<void> {
    const db = this.db;
    await db
      .updateTable('tokens')
      .set({ last_used_at: toIso(now, 'now') })
      .where('id', '=', id)
      .execute();
  }

  /** Returns a setting's value, if set. */
  async getSetting(key: string): Promise<string | undefined> {
    const db = this.db;
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** Sets a setting, replacing its value. */
  async setSetting(key: string, value: string): Promise<void> {
    const db = this.db;
    await db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** Stores the hash of a new API token. */
  async createApiToken(tokenHash: string, now: string): Promise<void> {
    const db = this.db;
    await db
      .insertInto('api_tokens')
      .values({ token_hash: tokenHash, created_at: toIso(now, 'now') })
      .execute();
  }

  /** The API token with this hash, if any. */
  async findApiToken(tokenHash: string): Promise<StoredApiToken | undefined> {
    const db = this.db;
    const row = await db
      .selectFrom('api_tokens')
      .select(['id', 'created_at', 'last_used_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return {
      id: row.id,
      createdAt: row.created_at,
      ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
    };
  }

  /** Records when an API token was last used. */
  async touchApiToken(id: number, now: string): Promise<void> {
    const db = this.db;
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: toIso(now, 'now') })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes every API token (a new API password signs every app out). */
  async deleteApiTokens(): Promise<void> {
    const db = this.db;
    await db.deleteFrom('api_tokens').execute();
  }
}
