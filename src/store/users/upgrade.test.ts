// Migration 0011 (issue 24) on a database as the previous release left it: the owner becomes user 1 and
// keeps everything. SQLite rebuilds channels and saved_entries to get there, with foreign keys off: what
// references them must come through whole.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openStoreDb } from '../../../test/helpers/store-db.js';
import { minutesAfterT0 as at, type StoreBackend, storeBackends } from '../../../test/helpers/temp-store.js';
import { readMigrations } from '../migrate.js';
import type { Database } from '../schema.js';
import type { Store } from '../store.js';
import { fromDbBool } from '../values.js';

/** The migrations the previous release had. */
const PREVIOUS = (name: string) => name < '0011';

/** A store on a fresh database migrated as the previous release did, and a connection of the test's own. */
async function previousRelease(backend: StoreBackend): Promise<{ store: Store; db: Kysely<Database> }> {
  const store = await backend.open({ migrated: false });
  const db = openStoreDb(backend, store);
  const migrations = (await readMigrations(backend.name)).filter((m) => PREVIOUS(m.name));
  assert.equal(migrations.at(-1)?.name, '0010_poll_rounds.sql');
  await db.transaction().execute(async (trx) => {
    await sql`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`.execute(trx);
    for (const migration of migrations) {
      for (const statement of migration.statements) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ name: migration.name, applied_at: at(0) })
        .execute();
    }
  });
  return { store, db };
}

/** Runs the statements, one per line, with `true`/`false` written as the dialect stores booleans. */
async function run(backend: StoreBackend, db: Kysely<Database>, lines: string): Promise<void> {
  const bool = (text: string) =>
    backend.name === 'sqlite' ? text.replaceAll('TRUE', '1').replaceAll('FALSE', '0') : text;
  for (const line of lines.split('\n').map((l) => l.trim()))
    if (line !== '') await sql.raw(bool(line)).execute(db);
}

const TABLES = [
  'feeds',
  'entries',
  'channels',
  'subscriptions',
  'entry_states',
  'channel_entries',
  'unread_counts',
  'saved_entries',
  'filters',
  'tokens',
  'api_tokens',
] as const;

async function rowCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** An owner's database: settings, feeds followed in two channels, read state, a saved entry, rules, tokens. */
async function ownersData(backend: StoreBackend, db: Kysely<Database>): Promise<void> {
  const t = at(0);
  await run(
    backend,
    db,
    `
    INSERT INTO settings (key, value) VALUES ('owner.password', 'scrypt$owner'), ('api.user', 'ann'), ('api.password', 'scrypt$api'), ('api.fever_key', 'fever'), ('subscriptions.default_channel', '2'), ('web.sessions.not_before', '${t}'), ('web.session_secret', 'secret'), ('feed_icons.url_secret', 'icons')
    INSERT INTO feeds (id, url, original_url, next_check_at, created_at, custom_title, paused) VALUES (1, 'https://a.example/feed', 'https://a.example/feed', '${t}', '${t}', 'My A', TRUE)
    INSERT INTO feeds (id, url, original_url, next_check_at, created_at) VALUES (2, 'https://b.example/feed', 'https://b.example/feed', '${t}', '${t}')
    INSERT INTO feeds (id, url, original_url, next_check_at, created_at, custom_title, unfollowed_at) VALUES (3, 'https://c.example/feed', 'https://c.example/feed', '${t}', '${t}', 'Kept', '${t}')
    INSERT INTO entries (id, feed_id, guid, sort_at, content_hash, first_seen_at, changed_at) VALUES (1, 1, 'a1', '${at(1)}', 'h', '${t}', '${t}'), (2, 1, 'a2', '${at(2)}', 'h', '${t}', '${t}'), (3, 2, 'b1', '${at(3)}', 'h', '${t}', '${t}'), (4, 3, 'c1', '${at(4)}', 'h', '${t}', '${t}')
    INSERT INTO channels (id, uid, name, position) VALUES (2, 'news', 'News', 1), (3, 'later', 'Later', 2), (4, 'gone', 'Gone', 3)
    DELETE FROM channels WHERE id = 4
    INSERT INTO subscriptions (channel_id, feed_id, created_at) VALUES (2, 1, '${t}'), (3, 1, '${t}'), (2, 2, '${t}')
    INSERT INTO entry_states (channel_id, entry_id, is_read, updated_at) VALUES (2, 1, TRUE, '${t}')
    INSERT INTO channel_entries (channel_id, entry_id, feed_id, sort_at, is_read) VALUES (2, 1, 1, '${at(1)}', TRUE), (2, 2, 1, '${at(2)}', FALSE), (3, 1, 1, '${at(1)}', FALSE), (3, 2, 1, '${at(2)}', FALSE), (2, 3, 2, '${at(3)}', FALSE)
    INSERT INTO unread_counts (channel_id, feed_id, unread) VALUES (2, 1, 1), (3, 1, 2), (2, 2, 1)
    INSERT INTO saved_entries (entry_id, saved_at) VALUES (4, '${t}')
    INSERT INTO filters (channel_id, kind, url, created_at) VALUES (NULL, 'mute', 'https://mute.example/', '${t}'), (2, 'block', 'https://block.example/', '${t}')
    INSERT INTO tokens (token_hash, scope, created_at) VALUES ('tokenhash', 'read', '${t}')
    INSERT INTO api_tokens (token_hash, created_at) VALUES ('apihash', '${t}')
    `,
  );
  // the identities of PostgreSQL did not count the ids given above
  if (backend.name === 'postgres')
    await run(
      backend,
      db,
      `
      SELECT setval(pg_get_serial_sequence('channels', 'id'), 4)
      SELECT setval(pg_get_serial_sequence('feeds', 'id'), 3)
      SELECT setval(pg_get_serial_sequence('entries', 'id'), 4)
      `,
    );
}

async function users(db: Kysely<Database>) {
  const rows = await db.selectFrom('users').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    isAdmin: fromDbBool(row.is_admin),
    pending: fromDbBool(row.pending),
  }));
}

async function settings(db: Kysely<Database>) {
  const instance = await db.selectFrom('settings').selectAll().orderBy('key').execute();
  const own = await db.selectFrom('user_settings').selectAll().orderBy('key').execute();
  return {
    instance: instance.map((row) => `${row.key}=${row.value}`),
    own: own.map((row) => `${row.user_id} ${row.key}=${row.value}`),
  };
}

function suite(backend: StoreBackend) {
  const dbs: Kysely<Database>[] = [];
  after(async () => {
    await Promise.all(dbs.map((db) => db.destroy()));
    await backend.cleanup();
  });
  async function previous() {
    const opened = await previousRelease(backend);
    dbs.push(opened.db);
    return opened;
  }

  it('makes the owner user 1, named after the API user, with all that was theirs', async () => {
    const { store, db } = await previous();
    await ownersData(backend, db);
    const before = await rowCounts(db);
    await store.migrate();
    assert.deepEqual(await rowCounts(db), before);
    assert.deepEqual(await users(db), [{ id: 1, name: 'ann', isAdmin: true, pending: false }]);
    assert.deepEqual(await settings(db), {
      instance: ['feed_icons.url_secret=icons', 'web.session_secret=secret'],
      own: [
        '1 api.fever_key=fever',
        '1 api.password=scrypt$api',
        '1 api.user=ann',
        '1 owner.password=scrypt$owner',
        '1 subscriptions.default_channel=2',
        `1 web.sessions.not_before=${at(0)}`,
      ],
    });
    for (const table of [
      'channels',
      'filters',
      'tokens',
      'api_tokens',
      'saved_entries',
      'channel_entries',
    ] as const) {
      const owners = await db.selectFrom(table).select('user_id').distinct().execute();
      assert.deepEqual(
        owners.map((row) => row.user_id),
        [1],
        table,
      );
    }
    const channels = await db.selectFrom('channels').select(['id', 'uid']).orderBy('id').execute();
    assert.deepEqual(channels, [
      { id: 1, uid: 'notifications' },
      { id: 2, uid: 'news' },
      { id: 3, uid: 'later' },
    ]);
    const subscriptions = await db
      .selectFrom('subscriptions')
      .select(['channel_id', 'feed_id', 'title', 'paused'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      subscriptions.map((s) => [s.channel_id, s.feed_id, s.title, fromDbBool(s.paused)]),
      [
        [2, 1, 'My A', true],
        [3, 1, 'My A', true],
        [2, 2, null, false],
      ],
    );
    const feeds = await db
      .selectFrom('feeds')
      .select(['id', 'custom_title', 'paused'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      feeds.map((f) => [f.id, f.custom_title, fromDbBool(f.paused)]),
      [
        [1, null, true],
        [2, null, false],
        [3, 'Kept', false],
      ],
    );
    const saved = await db.selectFrom('saved_entries').selectAll().execute();
    assert.deepEqual(saved, [{ user_id: 1, entry_id: 4, saved_at: at(0) }]);
    const read = await db
      .selectFrom('channel_entries')
      .select(['channel_id', 'entry_id'])
      .where('is_read', '=', backend.name === 'sqlite' ? 1 : true)
      .execute();
    assert.deepEqual(read, [{ channel_id: 2, entry_id: 1 }]);
  });

  it('keeps what references the rebuilt tables: ids go on, and deletes still cascade', async () => {
    const { store, db } = await previous();
    await ownersData(backend, db);
    await store.migrate();
    // the channel deleted before the upgrade had id 4: its id does not come back
    const added = await db
      .insertInto('channels')
      .values({ user_id: 1, uid: 'new', name: 'New', position: 4 })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(added.id, 5);
    // through the store's own connection, whose foreign keys are back on after the migrations
    await store.channels.delete('later');
    const left = async (table: 'subscriptions' | 'channel_entries' | 'unread_counts') =>
      (await db.selectFrom(table).select('channel_id').distinct().orderBy('channel_id').execute()).map(
        (row) => row.channel_id,
      );
    assert.deepEqual(await left('subscriptions'), [2]);
    assert.deepEqual(await left('channel_entries'), [2]);
    assert.deepEqual(await left('unread_counts'), [2]);
    // a saved entry still protects its entry (ON DELETE RESTRICT, 0004)
    await assert.rejects(db.deleteFrom('entries').where('id', '=', 4).execute());
    // a uid is unique per user, not across users
    await db
      .insertInto('users')
      .values({ id: 2, name: 'bob', is_admin: 0, pending: 0, created_at: at(0) })
      .execute();
    await db.insertInto('channels').values({ user_id: 2, uid: 'news', name: 'News', position: 1 }).execute();
    await assert.rejects(
      db.insertInto('channels').values({ user_id: 2, uid: 'news', name: 'Again', position: 2 }).execute(),
    );
  });

  it('leaves an empty database a pending user 1 named admin', async () => {
    const { store, db } = await previous();
    await store.migrate();
    assert.deepEqual(await users(db), [{ id: 1, name: 'admin', isAdmin: true, pending: true }]);
    const channels = await db.selectFrom('channels').select(['user_id', 'uid']).execute();
    assert.deepEqual(channels, [{ user_id: 1, uid: 'notifications' }]);
  });

  it('names user 1 admin when the API user is no valid user name', async () => {
    const { store, db } = await previous();
    await run(
      backend,
      db,
      "INSERT INTO settings (key, value) VALUES ('api.user', 'bad name!'), ('api.password', 'x')",
    );
    await store.migrate();
    assert.deepEqual(await users(db), [{ id: 1, name: 'admin', isAdmin: true, pending: false }]);
    assert.deepEqual((await settings(db)).own, ['1 api.password=x', '1 api.user=bad name!']);
  });

  it('gives user 2 the next id after user 1', async () => {
    const { store, db } = await previous();
    await store.migrate();
    const row = await db
      .insertInto('users')
      .values({ name: 'bob', is_admin: 0, pending: 0, created_at: at(0) })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(row.id, 2);
  });

  if (backend.name === 'sqlite')
    it('rolls the migrations back when they leave a row without its parent', async () => {
      const { store, db } = await previous();
      // a subscription of a channel that does not exist, written past the foreign keys (an old bug's
      // leftovers): the upgrade must not hide it
      await run(backend, db, 'PRAGMA foreign_keys = OFF');
      await run(
        backend,
        db,
        `INSERT INTO subscriptions (channel_id, feed_id, created_at) VALUES (99, 99, '${at(0)}')`,
      );
      await assert.rejects(
        store.migrate(),
        /store: the migrations were undone: they left rows without their parent row \(2, first: subscriptions row \d+ -> /,
      );
      const done = await db.selectFrom('schema_migrations').select('name').execute();
      assert.equal(
        done.some((row) => row.name === '0011_users.sql'),
        false,
      );
      const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'users'`.execute(
        db,
      );
      assert.deepEqual(tables.rows, []);
    });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(`migration 0011 on ${backend.name}`, () => suite(backend));
}
