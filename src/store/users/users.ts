import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import { StoreArea } from '../area.js';
import { keepPaused } from '../channels/index.js';
import { isFollowed } from '../claim.js';
import type { Database, UserTable } from '../schema.js';
import { StoreError } from '../store-error.js';
import type { Dialect } from '../types.js';
import { chunk, fromDbBool, rowCount, toDbBool, toIso } from '../values.js';

/**
 * What a user name may be: it is typed at sign-in and into the Google Reader and Fever apps, and appears
 * in URLs and logs as it is. Migration 0011 applies the same rule to the API user it names user 1 after.
 */
export const USER_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** True when `name` may name a user (USER_NAME_PATTERN). */
export function isUserName(name: string): boolean {
  return USER_NAME_PATTERN.test(name);
}

/** A person on this instance. */
export interface StoredUser {
  id: number;
  name: string;
  isAdmin: boolean;
  /** The IndieAuth profile URL their Microsub tokens name. */
  me?: string;
  createdAt: string;
  /** How many subscriptions their channels have. */
  subscriptions: number;
}

/** A user to add. The first user of an instance is an admin whatever `isAdmin` says. */
export interface NewUser {
  name: string;
  isAdmin: boolean;
  me?: string;
}

/** What `set` changes; `me: null` clears the profile URL. */
export interface UserPatch {
  isAdmin?: boolean;
  me?: string | null;
}

/** What removing a user left to do: the feeds nobody follows any more (marked unfollowed, not polled). */
export interface RemovedUser {
  unfollowedFeedIds: number[];
}

type Db = Kysely<Database> | Transaction<Database>;

type UserRow = Selectable<UserTable> & { subscriptions: number | string | bigint | null };

/** The user a row holds; a NULL `me` becomes an absent field. */
function userFromRow(row: UserRow): StoredUser {
  return {
    id: row.id,
    name: row.name,
    isAdmin: fromDbBool(row.is_admin),
    ...(row.me === null ? {} : { me: row.me }),
    createdAt: row.created_at,
    subscriptions: Number(row.subscriptions ?? 0),
  };
}

/** The users other than the pending placeholder (see add), with their subscription counts. */
function userRows(db: Db, dialect: Dialect) {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .selectFrom('subscriptions')
        .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
        .whereRef('channels.user_id', '=', 'users.id')
        .select((count) => count.fn.countAll<number>().as('count'))
        .as('subscriptions'),
    )
    .where('users.pending', '=', toDbBool(false, dialect));
}

/** The name's lower-case form as users_name indexes it (lower() on ASCII, which every valid name is). */
function sameName(eb: ExpressionBuilder<Database, 'users'>, name: string) {
  return eb(eb.fn<string>('lower', [eb.ref('users.name')]), '=', name.toLowerCase());
}

/** `name`, or StoreError 'invalid' saying what a name may be. */
function checkName(name: string): string {
  if (!isUserName(name))
    throw new StoreError(
      'invalid',
      `store: ${JSON.stringify(name.slice(0, 80))} is not a user name: use 1 to 64 letters, digits, dots, dashes or underscores`,
    );
  return name;
}

/** True for a unique constraint's failure, in either database. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

function nameTaken(name: string): StoreError {
  return new StoreError('conflict', `store: the user name ${name} is taken`);
}

/**
 * StoreError 'conflict' when another user has the profile URL `me`: an IndieAuth token names the user
 * whose `me` it is, which must be one user.
 */
async function checkMeFree(
  trx: Kysely<Database>,
  me: string | null | undefined,
  exceptId: number | undefined,
): Promise<void> {
  if (me === null || me === undefined) return;
  let query = trx.selectFrom('users').select('name').where('me', '=', me);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const other = await query.executeTakeFirst();
  if (other !== undefined)
    throw new StoreError(
      'conflict',
      `store: ${me.slice(0, 200)} is the profile URL of ${other.name} already`,
    );
}

/**
 * PostgreSQL: locks the users' rows until the transaction ends, so that two requests that add, rename or
 * remove users take turns (two taking over the pending user, two removing the last two admins). SQLite
 * has one writer at a time already.
 */
async function lockUsers(trx: Transaction<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await trx.selectFrom('users').select('id').orderBy('id').forUpdate().execute();
}

/**
 * The people on this instance (issue 24). Migration 0011 made the owner user 1; a database nobody had
 * set up gets a pending user 1, which lists as no user and which the first `add` takes over, with the
 * channels already made for it. Names are unique whatever their case.
 */
export class Users extends StoreArea {
  /** The users, oldest first. */
  async list(): Promise<StoredUser[]> {
    const rows = await userRows(this.db, this.dialect).orderBy('users.id').execute();
    return rows.map(userFromRow);
  }

  /** How many users there are. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('pending', '=', toDbBool(false, this.dialect))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** True when nobody has been set up yet (the instance's first user is still to come). */
  async isEmpty(): Promise<boolean> {
    return (await this.count()) === 0;
  }

  /** The user with this id, if any. */
  async get(id: number): Promise<StoredUser | undefined> {
    const row = await userRows(this.db, this.dialect).where('users.id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : userFromRow(row);
  }

  /**
   * Who the user with this id is (name, admin, `me`), without counting their subscriptions as `get`
   * does: what every signed-in request asks.
   */
  async identity(id: number): Promise<Omit<StoredUser, 'subscriptions'> | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('pending', '=', toDbBool(false, this.dialect))
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { subscriptions: _, ...user } = userFromRow({ ...row, subscriptions: 0 });
    return user;
  }

  /** The user with this name, in any case ("Ann" finds ann). */
  async byName(name: string): Promise<StoredUser | undefined> {
    if (!isUserName(name)) return undefined;
    const row = await userRows(this.db, this.dialect)
      .where((eb) => sameName(eb, name))
      .executeTakeFirst();
    return row === undefined ? undefined : userFromRow(row);
  }

  /** The user whose IndieAuth profile URL is exactly `me`. */
  async byMe(me: string): Promise<StoredUser | undefined> {
    const row = await userRows(this.db, this.dialect)
      .where('users.me', '=', me)
      .orderBy('users.id')
      .executeTakeFirst();
    return row === undefined ? undefined : userFromRow(row);
  }

  /** The one user when there is exactly one (a single-person instance), else undefined. */
  async sole(): Promise<StoredUser | undefined> {
    const rows = await userRows(this.db, this.dialect).orderBy('users.id').limit(rowCount(2)).execute();
    return rows.length === 1 && rows[0] !== undefined ? userFromRow(rows[0]) : undefined;
  }

  /**
   * Adds a user with their Notifications channel (Microsub's special channel, first). When the only
   * user is the pending user 1 of a database nobody had set up, this user takes it over instead: it
   * keeps id 1 and the channels made meanwhile. The first user is always an admin. StoreError 'invalid'
   * for a bad name, 'conflict' for a name taken in any case.
   */
  async add(user: NewUser, now: string): Promise<StoredUser> {
    const db = this.db;
    const dialect = this.dialect;
    const name = checkName(user.name);
    const at = toIso(now, 'now');
    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect);
        const users = await trx.selectFrom('users').select(['id', 'name', 'pending']).orderBy('id').execute();
        const only = users.length === 1 ? users[0] : undefined;
        await checkMeFree(trx, user.me, only !== undefined && fromDbBool(only.pending) ? only.id : undefined);
        if (only !== undefined && fromDbBool(only.pending)) {
          await trx
            .updateTable('users')
            .set({
              name,
              is_admin: toDbBool(true, dialect),
              me: user.me ?? null,
              pending: toDbBool(false, dialect),
              created_at: at,
            })
            .where('id', '=', only.id)
            .execute();
          return only.id;
        }
        if (users.some((other) => other.name.toLowerCase() === name.toLowerCase())) throw nameTaken(name);
        const row = await trx
          .insertInto('users')
          .values({
            name,
            is_admin: toDbBool(user.isAdmin || users.length === 0, dialect),
            me: user.me ?? null,
            pending: toDbBool(false, dialect),
            created_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('channels')
          .values({ user_id: row.id, uid: 'notifications', name: 'Notifications', position: 0 })
          .execute();
        return row.id;
      });
    } catch (error) {
      // another process added the same name between the check and the insert
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
    return this.#mustGet(id);
  }

  /** Renames a user; the same name in another case is allowed. StoreError as `add` says. */
  async rename(id: number, newName: string): Promise<StoredUser> {
    const db = this.db;
    const dialect = this.dialect;
    const name = checkName(newName);
    try {
      await db.transaction().execute(async (trx) => {
        await lockUsers(trx, dialect);
        await this.#mustExist(trx, id);
        const other = await trx
          .selectFrom('users')
          .select('id')
          .where((eb) => sameName(eb, name))
          .where('id', '!=', id)
          .executeTakeFirst();
        if (other !== undefined) throw nameTaken(name);
        await trx.updateTable('users').set({ name }).where('id', '=', id).execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
    return this.#mustGet(id);
  }

  /** Changes whether a user is an admin and their profile URL. The last admin stays one. */
  async set(id: number, patch: UserPatch): Promise<StoredUser> {
    const db = this.db;
    const dialect = this.dialect;
    await db.transaction().execute(async (trx) => {
      await lockUsers(trx, dialect);
      const user = await this.#mustExist(trx, id);
      if (patch.isAdmin === false && fromDbBool(user.is_admin) && !(await hasOtherAdmin(trx, dialect, id)))
        throw new StoreError(
          'invalid',
          `store: ${user.name} is the last admin: make another user admin first`,
        );
      await checkMeFree(trx, patch.me, id);
      const row = {
        ...(patch.isAdmin === undefined ? {} : { is_admin: toDbBool(patch.isAdmin, dialect) }),
        ...(patch.me === undefined ? {} : { me: patch.me }),
      };
      if (Object.keys(row).length > 0) await trx.updateTable('users').set(row).where('id', '=', id).execute();
    });
    return this.#mustGet(id);
  }

  /**
   * Removes a user and everything that is theirs: channels (with their subscriptions, read state and
   * channel rows), rules, tokens, API sessions, saved entries, settings (ON DELETE CASCADE). Feeds and
   * entries are shared and stay. A feed that nobody follows any more is marked unfollowed (as unfollow
   * does; polling stops, and it is forgotten later); one that others follow is paused when all of them
   * paused it. StoreError 'invalid' for the last admin, 'not_found' for an unknown user.
   */
  async remove(id: number, now: string): Promise<RemovedUser> {
    const db = this.db;
    const dialect = this.dialect;
    const at = toIso(now, 'now');
    const { channelIds, unfollowedFeedIds } = await db.transaction().execute(async (trx) => {
      await lockUsers(trx, dialect);
      const user = await this.#mustExist(trx, id);
      if (fromDbBool(user.is_admin) && !(await hasOtherAdmin(trx, dialect, id)))
        throw new StoreError('invalid', `store: ${user.name} is the last admin and cannot be removed`);
      const channels = await trx
        .selectFrom('channels')
        .select('id')
        .where('user_id', '=', id)
        .orderBy('id')
        .execute();
      const followed = await trx
        .selectFrom('subscriptions')
        .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
        .select('subscriptions.feed_id')
        .distinct()
        .where('channels.user_id', '=', id)
        .orderBy('subscriptions.feed_id')
        .execute();
      const feedIds = followed.map((row) => row.feed_id);
      // PostgreSQL: polls of these feeds write channel rows from the subscriptions they read; locking the
      // feeds (as a subscription change does, channel-entries.ts lockFeed) makes them take turns
      if (dialect === 'postgres')
        for (const ids of chunk(feedIds, 1000))
          await trx
            .selectFrom('feeds')
            .select('id')
            .where('id', 'in', ids)
            .orderBy('id')
            .forUpdate()
            .execute();
      await trx.deleteFrom('users').where('id', '=', id).execute();
      const unfollowed = await settleFeeds(trx, dialect, feedIds, at);
      return { channelIds: channels.map((row) => row.id), unfollowedFeedIds: unfollowed };
    });
    this.area.changed(channelIds);
    return { unfollowedFeedIds };
  }

  /** The user's row (pending excluded), or StoreError 'not_found'. */
  async #mustExist(trx: Transaction<Database>, id: number): Promise<Selectable<UserTable>> {
    const row = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('pending', '=', toDbBool(false, this.dialect))
      .executeTakeFirst();
    if (row === undefined) throw new StoreError('not_found', `store: there is no user ${id}`);
    return row;
  }

  async #mustGet(id: number): Promise<StoredUser> {
    const user = await this.get(id);
    if (user === undefined) throw new StoreError('not_found', `store: user ${id} vanished`);
    return user;
  }
}

/** True when a user other than `id` is an admin. */
async function hasOtherAdmin(trx: Transaction<Database>, dialect: Dialect, id: number): Promise<boolean> {
  const other = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '!=', id)
    .where('is_admin', '=', toDbBool(true, dialect))
    .where('pending', '=', toDbBool(false, dialect))
    .executeTakeFirst();
  return other !== undefined;
}

/**
 * After a user's subscriptions went: marks the feeds among `feedIds` that nobody follows any more
 * unfollowed at `at` (those already marked keep their time) and returns them; the others are paused when
 * every subscription left has them paused, as polling reads feeds.paused.
 */
async function settleFeeds(
  trx: Transaction<Database>,
  dialect: Dialect,
  feedIds: readonly number[],
  at: string,
): Promise<number[]> {
  const unfollowed: number[] = [];
  for (const ids of chunk(feedIds, 500)) {
    const gone = await trx
      .selectFrom('feeds')
      .select('id')
      .where('id', 'in', ids)
      .where((eb) => eb.not(isFollowed(eb)))
      .orderBy('id')
      .execute();
    unfollowed.push(...gone.map((row) => row.id));
    await trx
      .updateTable('feeds')
      .set({ unfollowed_at: at })
      .where('id', 'in', ids)
      .where('unfollowed_at', 'is', null)
      .where((eb) => eb.not(isFollowed(eb)))
      .execute();
  }
  await keepPaused(trx, dialect, feedIds);
  return unfollowed;
}
