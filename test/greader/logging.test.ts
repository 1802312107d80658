import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createApp } from '../../src/server/app.js';
import {
  API_PASSWORD,
  API_USER,
  FEVER_KEY,
  openSyncHarness,
  type SyncHarness,
} from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

describe('sync APIs: logs', () => {
  const backend = storeBackends()[0];
  let h: SyncHarness;
  let logged = '';

  before(async () => {
    if (!backend) throw new Error('no SQLite backend');
    h = await openSyncHarness(backend);
  });
  after(async () => {
    await h.close();
    await backend?.cleanup();
  });

  it('never logs a password, a Fever key or a token, whether the login fails or succeeds', async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const app = createApp({ ...h.deps, log: pino({ level: 'trace' }, sink) });
    const login = (password: string) =>
      app.request(
        `/api/greader/accounts/ClientLogin?Email=${API_USER}&Passwd=${encodeURIComponent(password)}`,
      );
    assert.equal((await login('a wrong password')).status, 401);
    const ok = await login(API_PASSWORD);
    const token = /Auth=(\S+)/.exec(await ok.text())?.[1] ?? '';
    await app.request('/api/greader/reader/api/0/user-info', {
      headers: { authorization: `GoogleLogin auth=${token}x` },
    });
    await app.request(`/api/fever?api&api_key=${'a'.repeat(32)}`, { method: 'POST' });
    await app.request(`/api/fever?api&api_key=${FEVER_KEY}`, { method: 'POST' });
    assert.match(logged, /failed ClientLogin/);
    assert.match(logged, /refused an api_key/);
    for (const secret of ['a wrong password', API_PASSWORD, token, FEVER_KEY, 'a'.repeat(32)])
      assert.ok(!logged.includes(secret), `the log holds ${secret.slice(0, 8)}...`);
  });
});
