import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from './open.js';
import { StoreError } from './store-error.js';

/** Asserts a StoreError of this kind whose message does not leak the password. */
function refusedWithoutSecret(kind: string) {
  return (error: unknown) => {
    assert.ok(error instanceof StoreError);
    assert.equal(error.kind, kind);
    assert.doesNotMatch(error.message, /secret/);
    return true;
  };
}

describe('openStore', () => {
  it('opens a private in-memory SQLite database for sqlite::memory:', async () => {
    const store = await openStore('sqlite::memory:');
    await store.migrate();
    assert.equal(store.dialect, 'sqlite');
    assert.equal((await store.feeds.add('https://example.org/m.xml', '2024-03-01T12:00:00Z')).id, 1);
    await store.close();
    await store.close();
  });

  it('resolves a relative sqlite path against the working directory and creates its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidings-store-open-'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      const store = await openStore('sqlite:nested/data/tidings.db');
      await store.close();
      assert.ok(existsSync(join(dir, 'nested/data/tidings.db')));
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a new SQLite database 8 KiB pages and leaves an existing one its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidings-store-pages-'));
    const pageSize = (path: string) => {
      const database = new BetterSqlite3(path, { readonly: true });
      try {
        return database.pragma('page_size', { simple: true });
      } finally {
        database.close();
      }
    };
    try {
      const fresh = await openStore(`sqlite:${join(dir, 'new.db')}`);
      await fresh.migrate();
      await fresh.close();
      assert.equal(pageSize(join(dir, 'new.db')), 8192);
      const old = new BetterSqlite3(join(dir, 'old.db'));
      old.pragma('page_size = 4096');
      old.pragma('journal_mode = WAL');
      old.close();
      const existing = await openStore(`sqlite:${join(dir, 'old.db')}`);
      await existing.migrate();
      await existing.feeds.add('https://example.org/old.xml', '2024-03-01T12:00:00Z');
      await existing.close();
      assert.equal(pageSize(join(dir, 'old.db')), 4096);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses other schemes and an empty sqlite path', async () => {
    await assert.rejects(openStore('mysql://user:secret@host/db'), refusedWithoutSecret('config'));
    await assert.rejects(openStore('sqlite:'), refusedWithoutSecret('config'));
  });

  it('reports an unreachable PostgreSQL server without its password', async () => {
    await assert.rejects(
      openStore('postgres://user:secret@127.0.0.1:1/db'),
      refusedWithoutSecret('unavailable'),
    );
  });

  it('reports a SQLite path whose folder cannot be created as unavailable, naming the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidings-store-blocked-'));
    try {
      // a file where the folder should be: refused as a folder that cannot be written would be, even for root
      writeFileSync(join(dir, 'blocked'), 'not a folder');
      await assert.rejects(openStore(`sqlite:${join(dir, 'blocked', 'data', 't.db')}`), (error: unknown) => {
        assert.ok(error instanceof StoreError);
        assert.equal(error.kind, 'unavailable');
        assert.match(error.message, /opening the SQLite database .*blocked\/data\/t\.db failed: .*ENOTDIR/);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
