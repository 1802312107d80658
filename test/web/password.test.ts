import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  hashPassword,
  PASSWORD_SETTING,
  SESSIONS_NOT_BEFORE_SETTING,
  verifyPassword,
} from '../../src/auth/password-hash.js';
import { LoginLimiter } from '../../src/auth/rate-limit.js';
import { checkPassword, passwordFromInput } from '../../src/cli/password.js';
import { openStore } from '../../src/store/index.js';
import { tidings } from '../helpers/cli.js';

describe('owner password', () => {
  const dir = mkdtempSync(join(tmpdir(), 'web-helper-password-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes with scrypt and a random salt, and verifies only the right password', async () => {
    const hash = await hashPassword('a long enough secret');
    assert.match(hash, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    assert.notEqual(hash, await hashPassword('a long enough secret'), 'salted');
    assert.equal(await verifyPassword('a long enough secret', hash), true);
    assert.equal(await verifyPassword('a long enough secreT', hash), false);
    assert.equal(await verifyPassword('x', 'plain-text'), false);
    assert.equal(await verifyPassword('x', 'scrypt$0$8$1$abc$def'), false);
  });

  it('reads a piped password without its final newline and refuses short ones', () => {
    assert.equal(passwordFromInput('secret words\n'), 'secret words');
    assert.equal(passwordFromInput('secret words\r\n'), 'secret words');
    assert.equal(passwordFromInput(' spaced  '), ' spaced  ');
    assert.match(checkPassword('short') ?? '', /at least 8/);
    assert.equal(checkPassword('long enough'), undefined);
  });

  it('`tidings password` stores the hash from stdin and signs earlier sessions out', async () => {
    const env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'tidings.db')}` };
    const refused = await tidings(['password'], env, 'short\n');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /at least 8 characters; nothing changed/);
    const before = Date.now();
    const set = await tidings(['password'], env, 'my new password\n');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /password set/);
    const store = await openStore(env.TIDINGS_DATABASE_URL);
    try {
      const hash = (await store.accounts.getUserSetting(PASSWORD_SETTING)) ?? '';
      assert.equal(await verifyPassword('my new password', hash), true);
      assert.ok(Number(await store.accounts.getUserSetting(SESSIONS_NOT_BEFORE_SETTING)) >= before);
    } finally {
      await store.close();
    }
  });

  it('limits failures per client within the window, and forgets them after a success', () => {
    const limiter = new LoginLimiter(3, 1000);
    for (let i = 0; i < 3; i++) limiter.recordFailure('a', i);
    assert.ok(limiter.retryAfterSeconds('a', 10) > 0);
    assert.equal(limiter.retryAfterSeconds('b', 10), 0);
    assert.equal(limiter.retryAfterSeconds('a', 1001), 0);
    limiter.recordSuccess('a');
    assert.equal(limiter.retryAfterSeconds('a', 10), 0);
  });
});
