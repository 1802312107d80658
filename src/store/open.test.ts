import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
    assert.equal((await store.addFeed('https://example.org/m.xml', '2024-03-01T12:00:00Z')).id, 1);
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

  it('refuses other schemes and an empty sqlite path', async () => {
    await assert.rejects(openStore('mysql://user:secret@host/db'), refusedWithoutSecret('invalid'));
    await assert.rejects(openStore('sqlite:'), refusedWithoutSecret('invalid'));
  });

  it('reports an unreachable PostgreSQL server without its password', async () => {
    await assert.rejects(openStore('postgres://user:secret@127.0.0.1:1/db'), refusedWithoutSecret('invalid'));
  });
});
