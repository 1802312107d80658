import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkApiLogin, checkFeverKey, feverKey } from '../../src/auth/api-credentials.js';
import { openStore } from '../../src/store/index.js';
import { tidings } from '../helpers/cli.js';

describe('tidings api-password', () => {
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-api-password-'));
    env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}` };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the password from stdin and sets the account both APIs accept, hashed', async () => {
    const run = await tidings(['api-password', '--user', 'ann'], env, 'long enough secret\n');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /API password set for ann/);
    const store = await openStore(env['TIDINGS_DATABASE_URL'] as string);
    try {
      assert.equal(await checkApiLogin(store, 'ann', 'long enough secret'), true);
      assert.equal(await checkFeverKey(store, feverKey('ann', 'long enough secret')), true);
      const stored = [
        await store.accounts.getUserSetting('api.password'),
        await store.accounts.getUserSetting('api.fever_key'),
      ];
      assert.ok(stored.every((value) => value !== undefined && !value.includes('long enough secret')));
      assert.notEqual(stored[1], feverKey('ann', 'long enough secret'));
    } finally {
      await store.close();
    }
  });

  it('refuses a short password with one line and a non-zero exit, changing nothing', async () => {
    const run = await tidings(['api-password', '--user', 'bob'], env, 'short\n');
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      'tidings: api-password: use a password of at least 8 characters; nothing changed\n',
    );
    const store = await openStore(env['TIDINGS_DATABASE_URL'] as string);
    try {
      assert.equal(await store.accounts.getUserSetting('api.user'), 'ann');
    } finally {
      await store.close();
    }
  });

  it('refuses a user name with a colon (Fever joins user and password with one)', async () => {
    const run = await tidings(['api-password', '--user', 'a:b'], env, 'long enough secret\n');
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^tidings: api-password: the user name must not contain spaces or ":"; nothing changed\n$/,
    );
  });
});
