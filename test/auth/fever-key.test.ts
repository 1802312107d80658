// How the Fever key is stored (issue 22): a slow salted hash, not a plain SHA-256 that a copied
// database lets anyone test at ~300k guesses a second; databases written before keep working.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  API_FEVER_KEY_SETTING,
  checkFeverKey,
  feverKey,
  setApiPassword,
  upgradeFeverKeyStorage,
} from '../../src/auth/api-credentials.js';
import { verifyPassword } from '../../src/auth/password-hash.js';
import { API_USER, openSyncHarness, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

/** The Fever key's setting as tidings wrote it before issue 22. */
const legacyStored = (key: string) => createHash('sha256').update(key).digest('hex');

/** api_key=KEY as a Fever app sends it: true when the answer says auth 1. */
async function feverAuth(h: SyncHarness, key: string): Promise<boolean> {
  const res = await h.app.request('/api/fever?api', {
    method: 'POST',
    body: new URLSearchParams({ api_key: key }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  return ((await res.json()) as { auth: number }).auth === 1;
}

for (const backend of storeBackends()) {
  describe(`fever key storage (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;

    before(async () => {
      h = await openSyncHarness(backend);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('stores the key as scrypt with a random salt at the password cost, never as a fast hash', async () => {
      await setApiPassword(h.store, API_USER, 'a fever password');
      const key = feverKey(API_USER, 'a fever password');
      const stored = (await h.store.accounts.getUserSetting(API_FEVER_KEY_SETTING)) ?? '';
      const [kind, n, r, p, salt] = stored.split('$');
      assert.deepEqual([kind, n, r, p], ['scrypt', '32768', '8', '1']);
      assert.ok((salt ?? '').length >= 20);
      assert.ok(!stored.includes(key) && !stored.includes(legacyStored(key)));
      // the same password again: another salt, another hash
      await setApiPassword(h.store, API_USER, 'a fever password', { N: 1024 });
      assert.notEqual(await h.store.accounts.getUserSetting(API_FEVER_KEY_SETTING), stored);
      assert.equal(await checkFeverKey(h.store, key), true);
    });

    it('keeps a key stored as a plain SHA-256 working, rewriting it as a slow hash on the first request', async () => {
      const key = feverKey(API_USER, 'an old password');
      await h.store.accounts.setUserSetting(API_FEVER_KEY_SETTING, legacyStored(key));
      assert.equal(await feverAuth(h, feverKey(API_USER, 'not the old password')), false);
      const upgraded = (await h.store.accounts.getUserSetting(API_FEVER_KEY_SETTING)) ?? '';
      assert.match(upgraded, /^scrypt\$32768\$8\$1\$/, 'even a wrong key upgrades the storage');
      assert.equal(await verifyPassword(legacyStored(key), upgraded), true);
      assert.equal(await feverAuth(h, key), true);
      assert.equal(await feverAuth(h, key.toUpperCase()), true);
    });

    it('upgrades a stored SHA-256 without any request (as `serve` does when it starts)', async () => {
      const key = feverKey(API_USER, 'an older password');
      await h.store.accounts.setUserSetting(API_FEVER_KEY_SETTING, legacyStored(key));
      await upgradeFeverKeyStorage(h.store, { N: 1024 });
      const stored = (await h.store.accounts.getUserSetting(API_FEVER_KEY_SETTING)) ?? '';
      assert.match(stored, /^scrypt\$1024\$/);
      assert.equal(await upgradeFeverKeyStorage(h.store), stored, 'a slow hash is left as it is');
      assert.equal(await feverAuth(h, key), true);
    });
  });
}
