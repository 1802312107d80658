import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { StoredFeed } from '../../src/model/stored.js';
import type { NewEntry, PollOutcome, Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';

/** One database kind the store tests run against. */
export interface StoreBackend {
  readonly name: 'sqlite' | 'postgres';
  /** Why this backend cannot run here; tests skip with this message. Undefined when it can run. */
  readonly skip?: string;
  /** Opens a store on a fresh, empty database of its own, migrated unless `migrated` is false. */
  open(options?: { migrated?: boolean }): Promise<Store>;
  /** Opens a second store on the database of `store`, with its own connection (pool), as another process would. */
  openPeer(store: Store): Promise<Store>;
  /** The database URL `store` was opened on, for tests that look at raw tables. */
  urlOf(store: Store): string;
  /** Closes every store opened here and deletes their databases. */
  cleanup(): Promise<void>;
}

export const PG_SKIP_MESSAGE = 'TIDINGS_TEST_PG_URL is not set: PostgreSQL store tests skipped';

/** The backends to test: SQLite (temp files) always, PostgreSQL when TIDINGS_TEST_PG_URL is set. */
export function storeBackends(): StoreBackend[] {
  return [sqliteBackend(), postgresBackend(process.env['TIDINGS_TEST_PG_URL'])];
}

/** Remembers the URL of each store so that peers can open the same database, and closes them all. */
function storeRegistry() {
  const urls = new Map<Store, string>();
  return {
    async open(url: string, migrated: boolean): Promise<Store> {
      // SQLite stores answer their reads from a read thread, as under `serve`
      const store = await openStore(url, { readThreads: url.startsWith('sqlite:') ? 1 : 0 });
      urls.set(store, url);
      if (migrated) await store.migrate();
      return store;
    },
    urlOf(store: Store): string {
      const url = urls.get(store);
      if (url === undefined) throw new Error('temp-store: this store was not opened by this backend');
      return url;
    },
    async closeAll(): Promise<void> {
      await Promise.all([...urls.keys()].map((store) => store.close()));
      urls.clear();
    },
  };
}

function sqliteBackend(): StoreBackend {
  const registry = storeRegistry();
  let dir: string | undefined;
  let count = 0;
  return {
    name: 'sqlite',
    async open(options) {
      dir ??= await mkdtemp(join(tmpdir(), 'tidings-store-'));
      count += 1;
      return registry.open(`sqlite:${join(dir, `store-${count}.db`)}`, options?.migrated ?? true);
    },
    openPeer: (store) => registry.open(registry.urlOf(store), false),
    urlOf: (store) => registry.urlOf(store),
    async cleanup() {
      await registry.closeAll();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Each `open()` gets a schema of its own with a random name, named in the URL's search_path. */
function postgresBackend(baseUrl: string | undefined): StoreBackend {
  if (baseUrl === undefined || baseUrl === '') {
    const refuse = () => Promise.reject(new Error(PG_SKIP_MESSAGE));
    return {
      name: 'postgres',
      skip: PG_SKIP_MESSAGE,
      open: refuse,
      openPeer: refuse,
      urlOf: () => {
        throw new Error(PG_SKIP_MESSAGE);
      },
      cleanup: async () => {},
    };
  }
  const registry = storeRegistry();
  const schemas: string[] = [];
  let admin: Kysely<unknown> | undefined;
  return {
    name: 'postgres',
    async open(options) {
      admin ??= new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: baseUrl }) }),
      });
      const schema = `tidings_test_${randomBytes(6).toString('hex')}`;
      await admin.schema.createSchema(schema).execute();
      schemas.push(schema);
      const url = new URL(baseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return registry.open(url.toString(), options?.migrated ?? true);
    },
    openPeer: (store) => registry.open(registry.urlOf(store), false),
    urlOf: (store) => registry.urlOf(store),
    async cleanup() {
      await registry.closeAll();
      for (const schema of schemas.splice(0))
        await admin?.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin?.destroy();
      admin = undefined;
    },
  };
}

const T0 = Date.parse('2024-03-01T12:00:00.000Z');

/** The time `minutes` after 2024-03-01T12:00Z, as the store writes it. */
export function minutesAfterT0(minutes: number): string {
  return new Date(T0 + minutes * 60_000).toISOString();
}

/** An entry as the poller would hand it over, sorted at T0 unless `overrides` say otherwise. */
export function testEntry(guid: string, overrides: Partial<NewEntry> = {}): NewEntry {
  return {
    guid,
    url: `https://example.org/${guid}`,
    title: `Title ${guid}`,
    sortAt: minutesAfterT0(0),
    authors: [],
    categories: [],
    enclosures: [],
    extra: {},
    contentHash: `hash-${guid}`,
    ...overrides,
  };
}

/** A successful poll of a feed at `now` that brings these new entries. */
export function testPoll(
  feedId: number,
  newEntries: NewEntry[],
  now = minutesAfterT0(1),
  overrides: Partial<PollOutcome> = {},
): PollOutcome {
  return {
    feedId,
    workerId: 'test-worker',
    now,
    feedPatch: { status: 'ok', lastCheckedAt: now },
    heartbeat: {
      at: now,
      status: 'ok',
      newCount: newEntries.length,
      updatedCount: 0,
      bytes: 1,
      durationMs: 1,
      diagnostics: [],
    },
    newEntries,
    changedEntries: [],
    ...overrides,
  };
}

/** Adds a feed that a channel follows (a feed nobody follows is never polled), in the channel "Test". */
export async function addFollowedFeed(store: Store, url: string, now: string): Promise<StoredFeed> {
  const feed = await store.feeds.add(url, now);
  const channel =
    (await store.channels.list()).find((c) => c.name === 'Test') ?? (await store.channels.create('Test'));
  await store.channels.subscribe(channel.id, feed.id, now);
  return feed;
}
