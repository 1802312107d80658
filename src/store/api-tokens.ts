import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { toIso } from './values.js';

/** A Google Reader API session as stored: the SHA-256 of its token only. */
export interface StoredApiToken {
  id: number;
  createdAt: string;
  lastUsedAt?: string;
}

/** Stores the hash of a new API token. */
export async function createApiToken(db: Kysely<Database>, tokenHash: string, now: string): Promise<void> {
  await db
    .insertInto('api_tokens')
    .values({ token_hash: tokenHash, created_at: toIso(now, 'now') })
    .execute();
}

/** The API token with this hash, if any. */
export async function findApiToken(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<StoredApiToken | undefined> {
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
export async function touchApiToken(db: Kysely<Database>, id: number, now: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: toIso(now, 'now') })
    .where('id', '=', id)
    .execute();
}

/** Deletes every API token (a new API password signs every app out). */
export async function deleteApiTokens(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('api_tokens').execute();
}
