import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkFeverKey, feverKey } from '../../src/auth/api-credentials.js';
import { type Client, signedIn, type WebHarness, webHarness } from '../web/harness.js';

describe('web: the API password for reading apps', () => {
  let h: WebHarness;
  let client: Client;

  before(async () => {
    h = await webHarness();
    client = await signedIn(h.app);
  });
  after(() => h.close());

  it('shows the two URLs to type into an app, and that no API password is set', async () => {
    const page = await client.get('/tokens');
    assert.equal(page.status, 200);
    assert.match(page.text, /<code>http:\/\/localhost\/api\/greader\.php<\/code>/);
    assert.match(page.text, /<code>http:\/\/localhost\/api\/fever\.php<\/code>/);
    assert.match(page.text, /No API password is set yet/);
  });

  it('sets the API password from the form, after which ClientLogin and the Fever key work', async () => {
    const set = await client.post('/tokens/api-password', { user: 'ann', password: 'phone password' });
    assert.equal(set.status, 303);
    assert.equal(set.headers.get('location'), '/tokens#api');
    const login = await h.app.request('/api/greader/accounts/ClientLogin', {
      method: 'POST',
      body: new URLSearchParams({ Email: 'ann', Passwd: 'phone password' }),
    });
    assert.equal(login.status, 200);
    assert.equal(await checkFeverKey(h.store, feverKey('ann', 'phone password')), true);
    assert.match((await client.get('/tokens')).text, /The API user is <strong>ann<\/strong>/);
  });

  it('refuses a short password with a 400 page and keeps the old one', async () => {
    const refused = await client.post('/tokens/api-password', { user: 'ann', password: 'short' });
    assert.equal(refused.status, 400);
    assert.equal(await checkFeverKey(h.store, feverKey('ann', 'phone password')), true);
  });

  it('needs the CSRF token like every form', async () => {
    const forged = await client.post('/tokens/api-password', {
      user: 'eve',
      password: 'eve password',
      _csrf: null,
    });
    assert.equal(forged.status, 403);
  });
});
