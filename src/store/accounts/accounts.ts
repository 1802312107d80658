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
    userId: row.user_id,
    tokenHash: row.token_hash,
    scope: row.scope,
    ...(row.label === null ? {} : { label: row.label }),
    createdAt: row.created_at,
    ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
  };
}

/**
 * Accounts: Microsub tokens issued by tidings itself and Google Reader API sessions, each the area's user's
 * (a token found by its hash names its user); the user's own settings (password hash, app password,
 * default channel) and the instance's (secrets). Tokens are stored by the SHA-256 of their secret only.
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
        user_id: this.userId,
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
   * Returns the token with this hash unless it was revoked, whoever's it is (it names its user). Compiled once (query-template.ts): every
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

  /** Returns the user's tokens, revoked ones included, oldest first. */
  async listTokens(): Promise<StoredToken[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', this.userId)
      .orderBy('id')
      .execute();
    return rows.map(tokenFromRow);
  }

  /**
   * Revokes one of the user's tokens; revoking it again keeps the first revocation time. False when the
   * user has no token with this id (another user's is left alone).
   */
  async revokeToken(id: number, now: string): Promise<boolean> {
    const db = this.db;
    const mine = await db
      .selectFrom('tokens')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', this.userId)
      .executeTakeFirst();
    if (mine === undefined) return false;
    await db
      .updateTable('tokens')
      .set({ revoked_at: toIso(now, 'now') })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return true;
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

  /** Returns one of the user's own settings (password hash, app password, ...), if set. */
  async getUserSetting(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user_settings')
      .select('value')
      .where('user_id', '=', this.userId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  /** Sets one of the user's own settings, replacing its value. */
  async setUserSetting(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('user_settings')
      .values({ user_id: this.userId, key, value })
      .onConflict((conflict) => conflict.columns(['user_id', 'key']).doUpdateSet({ value }))
      .execute();
  }

  /** Deletes one of the user's own settings. */
  async deleteUserSetting(key: string): Promise<void> {
    await this.db
      .deleteFrom('user_settings')
      .where('user_id', '=', this.userId)
      .where('key', '=', key)
      .execute();
  }

  /** The user's own settings whose key starts with `prefix`, by key (e.g. their ended web sessions). */
  async userSettingsStartingWith(prefix: string): Promise<{ key: string; value: string }[]> {
    const rows = await this.db
      .selectFrom('user_settings')
      .select(['key', 'value'])
      .where('user_id', '=', this.userId)
      .orderBy('key')
      .execute();
    // a person has a few settings: filtered here, whatever the database's collation makes of a range
    return rows.filter((row) => row.key.startsWith(prefix));
  }

  /** Every user's value of one of the users' own settings, by user id (e.g. who has an app password). */
  async usersWithSetting(key: string): Promise<{ userId: number; value: string }[]> {
    const rows = await this.db
      .selectFrom('user_settings')
      .select(['user_id', 'value'])
      .where('key', '=', key)
      .orderBy('user_id')
      .execute();
    return rows.map((row) => ({ userId: row.user_id, value: row.value }));
  }

  /** Returns an instance setting's value (secrets shared by every user), if set. */
  async getSetting(key: string): Promise<string | undefined> {
    const db = this.db;
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /**
   * Stores an instance setting unless one is stored already, and returns the stored value: of several
   * processes that create a secret on first use at once (`serve --processes N`), the first one's holds
   * for all, where setting it would have let each keep its own.
   */
  async settingOnce(key: string, value: string): Promise<string> {
    const db = this.db;
    await db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    return (await this.getSetting(key)) ?? value;
  }

  /** Sets an instance setting, replacing its value. */
  async setSetting(key: string, value: string): Promise<void> {
    const db = this.db;
    await db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** Stores the hash of a new API token of the user. */
  async createApiToken(tokenHash: string, now: string): Promise<void> {
    const db = this.db;
    await db
      .insertInto('api_tokens')
      .values({ user_id: this.userId, token_hash: tokenHash, created_at: toIso(now, 'now') })
      .execute();
  }

  /** The API token with this hash, if any, whoever's it is (it names its user). */
  async findApiToken(tokenHash: string): Promise<StoredApiToken | undefined> {
    const db = this.db;
    const row = await db
      .selectFrom('api_tokens')
      .select(['id', 'user_id', 'created_at', 'last_used_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return {
      id: row.id,
      userId: row.user_id,
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

  /** Deletes the user's API tokens (a new app password signs the user's apps out). */
  async deleteApiTokens(): Promise<void> {
    const db = this.db;
    await db.deleteFrom('api_tokens').where('user_id', '=', this.userId).execute();
  }
}
