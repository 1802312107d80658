import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { openStoreDb } from '../../../test/helpers/store-db.js';
import { minutesAfterT0 as at, type StoreBackend, storeBackends } from '../../../test/helpers/temp-store.js';
import { ChannelOwners } from '../area.js';
import { newFeedRow } from '../rows.js';
import type { Database } from '../schema.js';
import { StoreError, type StoreErrorKind } from '../store-error.js';
import type { ChangedChannels } from '../types.js';
import { fromDbBool, toDbBool } from '../values.js';
import { isUserName, Users } from './users.js';

/** A rejection with a StoreError of this kind whose message matches. */
function storeError(kind: StoreErrorKind, message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof StoreError, String(error));
    assert.equal(error.kind, kind);
    assert.match(error.message, message);
    return true;
  };
}

const USER_TABLES = [
  'channels',
  'filters',
  'tokens',
  'api_tokens',
  'saved_entries',
  'channel_entries',
  'user_settings',
] as const;

/** Rows per table that belong to `userId`, directly or through its channels. */
async function ownedRows(db: Kysely<Database>, userId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of USER_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  for (const table of ['subscriptions', 'entry_states', 'unread_counts'] as const) {
    const row = await db
      .selectFrom(table)
      .innerJoin('channels', 'channels.id', `${table}.channel_id`)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channels.user_id', '=', userId)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

function suite(backend: StoreBackend) {
  const dbs: Kysely<Database>[] = [];
  after(async () => {
    await Promise.all(dbs.map((db) => db.destroy()));
    await backend.cleanup();
  });

  /** A migrated store's database (user 1 pending) and a Users area on it that records changed channels. */
  async function fresh() {
    const store = await backend.open();
    const db = openStoreDb(backend, store);
    dbs.push(db);
    const changes: ChangedChannels[] = [];
    const users = new Users({
      db,
      dialect: backend.name,
      userId: 1,
      owners: new ChannelOwners(),
      changed: (c) => changes.push(c),
    });
    return { db, users, changes };
  }

  const bool = (value: boolean) => toDbBool(value, backend.name);

  /** A feed of its own (shared by whoever follows it) with `entries` entries. */
  async function feed(db: Kysely<Database>, name: string, entries: number) {
    const { id } = await db
      .insertInto('feeds')
      .values(newFeedRow(`https://${name}.example/feed`, at(0), backend.name))
      .returning('id')
      .executeTakeFirstOrThrow();
    const entryIds: number[] = [];
    for (let i = 0; i < entries; i += 1) {
      const entry = await db
        .insertInto('entries')
        .values({
          feed_id: id,
          guid: `${name}-${i}`,
          url: null,
          title: null,
          summary: null,
          content_html: null,
          content_text: null,
          published: null,
          updated: null,
          sort_at: at(i),
          authors: '[]',
          categories: '[]',
          enclosures: '[]',
          extra: '{}',
          content_hash: 'h',
          url_key: null,
          author_url: null,
          first_seen_at: at(0),
          changed_at: at(0),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      entryIds.push(entry.id);
    }
    return { id, entryIds };
  }

  /**
   * What a user has: a channel following these feeds (paused or not), its rows with the first entry
   * read, each feed's first entry saved, a rule for every channel and one for the channel, a token, an
   * API session and a setting.
   */
  async function belongings(
    db: Kysely<Database>,
    userId: number,
    follows: { feed: { id: number; entryIds: number[] }; paused: boolean }[],
  ) {
    const channel = await db
      .insertInto('channels')
      .values({ user_id: userId, uid: `reading-${userId}`, name: 'Reading', position: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const { feed, paused } of follows) {
      await db
        .insertInto('subscriptions')
        .values({
          channel_id: channel.id,
          feed_id: feed.id,
          created_at: at(0),
          title: null,
          paused: bool(paused),
        })
        .execute();
      for (const [i, entryId] of feed.entryIds.entries())
        await db
          .insertInto('channel_entries')
          .values({
            channel_id: channel.id,
            user_id: userId,
            entry_id: entryId,
            feed_id: feed.id,
            sort_at: at(i),
            is_read: bool(i === 0),
            is_removed: bool(false),
            is_hidden: bool(false),
          })
          .execute();
      const first = feed.entryIds[0];
      if (first === undefined) continue;
      await db
        .insertInto('entry_states')
        .values({
          channel_id: channel.id,
          entry_id: first,
          is_read: bool(true),
          is_removed: bool(false),
          updated_at: at(0),
        })
        .execute();
      await db
        .insertInto('unread_counts')
        .values({ channel_id: channel.id, feed_id: feed.id, unread: feed.entryIds.length - 1 })
        .execute();
      await db
        .insertInto('saved_entries')
        .values({ user_id: userId, entry_id: first, saved_at: at(0) })
        .execute();
    }
    await db
      .insertInto('filters')
      .values([
        { user_id: userId, channel_id: null, kind: 'mute', url: 'https://mute.example/', created_at: at(0) },
        {
          user_id: userId,
          channel_id: channel.id,
          kind: 'block',
          url: 'https://block.example/',
          created_at: at(0),
        },
      ])
      .execute();
    await db
      .insertInto('tokens')
      .values({
        user_id: userId,
        token_hash: `token-${userId}`,
        scope: 'read',
        label: null,
        created_at: at(0),
      })
      .execute();
    await db
      .insertInto('api_tokens')
      .values({ user_id: userId, token_hash: `api-${userId}`, created_at: at(0) })
      .execute();
    await db
      .insertInto('user_settings')
      .values({ user_id: userId, key: 'api.user', value: `user${userId}` })
      .execute();
    return channel.id;
  }

  it('lets the first user take over the pending user 1, as an admin whatever was asked', async () => {
    const { db, users } = await fresh();
    assert.equal(await users.isEmpty(), true);
    assert.equal(await users.count(), 0);
    assert.deepEqual(await users.list(), []);
    assert.equal(await users.get(1), undefined);
    assert.equal(await users.sole(), undefined);
    const ann = await users.add({ name: 'Ann', isAdmin: false, me: 'https://ann.example/' }, at(5));
    assert.deepEqual(ann, {
      id: 1,
      name: 'Ann',
      isAdmin: true,
      me: 'https://ann.example/',
      createdAt: at(5),
      subscriptions: 0,
    });
    // the channel migration 0011 made for user 1 is Ann's now; none was added
    const channels = await db.selectFrom('channels').select(['user_id', 'uid']).execute();
    assert.deepEqual(channels, [{ user_id: 1, uid: 'notifications' }]);
    assert.equal(await users.isEmpty(), false);
    assert.deepEqual(await users.sole(), ann);
    assert.deepEqual(await users.list(), [ann]);
  });

  it('adds users with their own Notifications channel and finds them by id, name and profile URL', async () => {
    const { db, users } = await fresh();
    const ann = await users.add({ name: 'ann', isAdmin: true, me: 'https://ann.example/' }, at(0));
    const bob = await users.add({ name: 'Bob', isAdmin: false }, at(1));
    assert.deepEqual(bob, { id: 2, name: 'Bob', isAdmin: false, createdAt: at(1), subscriptions: 0 });
    const channels = await db
      .selectFrom('channels')
      .select(['user_id', 'uid', 'name', 'position'])
      .orderBy('id')
      .execute();
    assert.deepEqual(channels, [
      { user_id: 1, uid: 'notifications', name: 'Notifications', position: 0 },
      { user_id: 2, uid: 'notifications', name: 'Notifications', position: 0 },
    ]);
    assert.equal(await users.count(), 2);
    assert.deepEqual(await users.list(), [ann, bob]);
    assert.equal(await users.sole(), undefined);
    assert.deepEqual(await users.get(2), bob);
    assert.equal(await users.get(3), undefined);
    assert.deepEqual(await users.byName('BOB'), bob);
    assert.deepEqual(await users.byName('bob'), bob);
    assert.equal(await users.byName('bo'), undefined);
    assert.equal(await users.byName('bob!'), undefined);
    assert.deepEqual(await users.byMe('https://ann.example/'), ann);
    assert.equal(await users.byMe('https://ann.example'), undefined);
    // the subscriptions of each user's channels
    const shared = await feed(db, 'shared', 0);
    await belongings(db, 2, [{ feed: shared, paused: false }]);
    assert.deepEqual(
      (await users.list()).map((u) => [u.name, u.subscriptions]),
      [
        ['ann', 0],
        ['Bob', 1],
      ],
    );
  });

  it('refuses names that are no user names, and names taken in any case', async () => {
    const { users } = await fresh();
    const ann = await users.add({ name: 'ann', isAdmin: true }, at(0));
    const bob = await users.add({ name: 'bob', isAdmin: false }, at(0));
    for (const name of ['', 'bad name!', 'ann/x', 'é', 'a'.repeat(65)]) {
      assert.equal(isUserName(name), false, name);
      await assert.rejects(
        users.add({ name, isAdmin: false }, at(1)),
        storeError('invalid', /is not a user name/),
      );
      await assert.rejects(users.rename(bob.id, name), storeError('invalid', /is not a user name/));
    }
    assert.equal(isUserName('a.b-c_D9'), true);
    assert.equal(isUserName('a'.repeat(64)), true);
    await assert.rejects(
      users.add({ name: 'ANN', isAdmin: false }, at(1)),
      storeError('conflict', /ANN is taken/),
    );
    await assert.rejects(users.rename(bob.id, 'Ann'), storeError('conflict', /Ann is taken/));
    await assert.rejects(users.rename(99, 'carol'), storeError('not_found', /no user 99/));
    // the same name in another case is the user's own
    assert.deepEqual(await users.rename(ann.id, 'ANN'), { ...ann, name: 'ANN' });
    assert.deepEqual(await users.rename(bob.id, 'robert'), { ...bob, name: 'robert' });
    assert.deepEqual(
      (await users.list()).map((u) => u.name),
      ['ANN', 'robert'],
    );
  });

  it('sets admin rights and profile URLs, keeping one admin', async () => {
    const { users } = await fresh();
    const ann = await users.add({ name: 'ann', isAdmin: true }, at(0));
    const bob = await users.add({ name: 'bob', isAdmin: false }, at(0));
    await assert.rejects(
      users.set(ann.id, { isAdmin: false }),
      storeError('invalid', /ann is the last admin/),
    );
    assert.deepEqual(await users.set(bob.id, { isAdmin: true, me: 'https://bob.example/' }), {
      ...bob,
      isAdmin: true,
      me: 'https://bob.example/',
    });
    assert.deepEqual(await users.set(ann.id, { isAdmin: false }), { ...ann, isAdmin: false });
    assert.deepEqual(await users.set(bob.id, { me: null }), { ...bob, isAdmin: true });
    assert.deepEqual(await users.set(bob.id, {}), { ...bob, isAdmin: true });
    await assert.rejects(
      users.set(bob.id, { isAdmin: false }),
      storeError('invalid', /bob is the last admin/),
    );
    await assert.rejects(users.set(99, { isAdmin: true }), storeError('not_found', /no user 99/));
  });

  it("refuses a profile URL that is another user's: an IndieAuth token names one user", async () => {
    const { users } = await fresh();
    const ann = await users.add({ name: 'ann', isAdmin: true, me: 'https://ann.example/' }, at(0));
    await assert.rejects(
      users.add({ name: 'carl', isAdmin: false, me: 'https://ann.example/' }, at(0)),
      storeError('conflict', /profile URL of ann/),
    );
    assert.equal(await users.byName('carl'), undefined);
    const bob = await users.add({ name: 'bob', isAdmin: false }, at(0));
    await assert.rejects(users.set(bob.id, { me: 'https://ann.example/' }), storeError('conflict', /of ann/));
    // a user's own URL again, and a cleared one, are fine
    assert.equal((await users.set(ann.id, { me: 'https://ann.example/' })).me, 'https://ann.example/');
    await users.set(ann.id, { me: null });
    assert.equal((await users.set(bob.id, { me: 'https://ann.example/' })).me, 'https://ann.example/');
    assert.equal((await users.byMe('https://ann.example/'))?.id, bob.id);
  });

  it("removes a user with all that is theirs, leaving another user's intact and settling shared feeds", async () => {
    const { db, users, changes } = await fresh();
    const ann = await users.add({ name: 'ann', isAdmin: true }, at(0));
    const bob = await users.add({ name: 'bob', isAdmin: false }, at(0));
    const both = await feed(db, 'both', 3);
    const bobs = await feed(db, 'bobs', 2);
    const anns = await feed(db, 'anns', 2);
    await belongings(db, ann.id, [
      { feed: both, paused: true },
      { feed: anns, paused: false },
    ]);
    const bobChannel = await belongings(db, bob.id, [
      { feed: both, paused: false },
      { feed: bobs, paused: false },
    ]);
    const annBefore = await ownedRows(db, ann.id);
    assert.ok(Object.values(annBefore).every((n) => n > 0));
    assert.ok(Object.values(await ownedRows(db, bob.id)).every((n) => n > 0));

    const bobChannels = await db
      .selectFrom('channels')
      .select('id')
      .where('user_id', '=', bob.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(await users.remove(bob.id, at(9)), { unfollowedFeedIds: [bobs.id] });
    assert.deepEqual(await ownedRows(db, bob.id), {
      channels: 0,
      filters: 0,
      tokens: 0,
      api_tokens: 0,
      saved_entries: 0,
      channel_entries: 0,
      user_settings: 0,
      subscriptions: 0,
      entry_states: 0,
      unread_counts: 0,
    });
    assert.deepEqual(await ownedRows(db, ann.id), annBefore);
    assert.equal(await users.get(bob.id), undefined);
    assert.deepEqual(
      (await users.list()).map((u) => [u.name, u.subscriptions]),
      [['ann', 2]],
    );
    assert.deepEqual(changes, [bobChannels.map((c) => c.id)]);
    assert.ok(bobChannels.some((c) => c.id === bobChannel));
    // feeds and entries are shared: they stay. Bob's feed is followed by nobody now, and the feed they
    // shared is paused, as its one follower left has it
    const feeds = await db
      .selectFrom('feeds')
      .select(['id', 'paused', 'unfollowed_at'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      feeds.map((f) => [f.id, fromDbBool(f.paused), f.unfollowed_at]),
      [
        [both.id, true, null],
        [bobs.id, false, at(9)],
        [anns.id, false, null],
      ],
    );
    const entries = await db
      .selectFrom('entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(entries.n), 7);
  });

  it('refuses to remove the last admin, an unknown user and the pending user', async () => {
    const { users } = await fresh();
    await assert.rejects(users.remove(1, at(0)), storeError('not_found', /no user 1/));
    const ann = await users.add({ name: 'ann', isAdmin: true }, at(0));
    const bob = await users.add({ name: 'bob', isAdmin: false }, at(0));
    await assert.rejects(users.remove(ann.id, at(1)), storeError('invalid', /ann is the last admin/));
    await assert.rejects(users.remove(99, at(1)), storeError('not_found', /no user 99/));
    await users.set(bob.id, { isAdmin: true });
    assert.deepEqual(await users.remove(ann.id, at(2)), { unfollowedFeedIds: [] });
    assert.deepEqual(
      (await users.list()).map((u) => u.name),
      ['bob'],
    );
    // an instance keeps at least one user: the one left is its last admin
    await assert.rejects(users.remove(bob.id, at(3)), storeError('invalid', /bob is the last admin/));
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(`users on ${backend.name}`, () => suite(backend));
}
