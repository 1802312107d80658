// Answers that carry a credential are never stored by a cache or a browser's history (issue 22):
// ClientLogin's Auth token, Google Reader's write token, the web login's session cookie and the
// Tokens page that shows a new Microsub token once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, PASSWORD_SETTING } from '../../src/auth/password-hash.js';
import { signIn } from '../greader/harness.js';
import { API_PASSWORD, API_USER, openSyncHarness, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { Client } from '../web/harness.js';

const OWNER_PASSWORD = 'the owner password';

describe('no-store on answers that carry credentials', () => {
  const backend = storeBackends()[0];
  let h: SyncHarness;

  before(async () => {
    if (!backend) throw new Error('no SQLite backend');
    h = await openSyncHarness(backend);
    await h.store.accounts.setUserSetting(PASSWORD_SETTING, await hashPassword(OWNER_PASSWORD, { N: 1024 }));
  });
  after(async () => {
    await h.close();
    await backend?.cleanup();
  });

  it('sends no-store with ClientLogin (token or refusal, text or JSON) and the write token', async () => {
    for (const output of ['', '&output=json']) {
      const res = await h.app.request(
        `/api/greader/accounts/ClientLogin?Email=${API_USER}&Passwd=${encodeURIComponent(API_PASSWORD)}${output}`,
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
    const wrong = await h.app.request(`/api/greader/accounts/ClientLogin?Email=${API_USER}&Passwd=nope`);
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('cache-control'), 'no-store');
    const app = await signIn(h);
    const token = await app.get('token');
    assert.equal(token.status, 200);
    assert.equal(token.headers.get('cache-control'), 'no-store');
  });

  it('sends no-store with the login that sets the session and the Tokens page that shows a new token', async () => {
    const browser = new Client(h.app);
    const login = await browser.login(OWNER_PASSWORD);
    assert.equal(login.status, 303);
    assert.equal(login.headers.get('cache-control'), 'no-store');
    const list = await browser.get('/tokens');
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('cache-control'), 'no-store');
    const created = await browser.post('/tokens', { scope: 'read', label: 'phone' });
    assert.equal(created.status, 200);
    assert.match(created.text, /will not be shown again/);
    assert.equal(created.headers.get('cache-control'), 'no-store');
  });
});
