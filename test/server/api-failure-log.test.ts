// Every 4xx and 5xx of the APIs is logged with its path, status and reason, and never a credential
// (issue 22: API failures were logged at no level, so nobody could see why an app failed).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { pino } from 'pino';
import { Logins } from '../../src/auth/logins.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/index.js';
import { API_PASSWORD, API_USER, openSyncHarness, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

interface Line {
  level: number;
  msg: string;
  api?: string;
  path?: string;
  query?: string;
  status?: number;
  reason?: string;
}

describe('API failures are logged', () => {
  const backend = storeBackends()[0];
  let h: SyncHarness;
  let app: Hono;
  let logged = '';
  let auth = '';
  const lines = () =>
    logged
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line)
      .filter((line) => line.status !== undefined);
  const last = () => lines().at(-1);

  before(async () => {
    if (!backend) throw new Error('no SQLite backend');
    h = await openSyncHarness(backend);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    // a store whose tag list fails, for a 500
    const channels = new Proxy(h.store.channels, {
      get(target, key) {
        if (key === 'list' && logged.includes('"fail-next"'))
          return () => Promise.reject(new Error('disk on fire'));
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store: Store = new Proxy(h.store, {
      get(target, key) {
        if (key === 'channels') return channels;
        // each request acts as its user's store: the user of this store gets this store back
        if (key === 'forUser') return (id: number) => (id === target.userId ? store : target.forUser(id));
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // a plain pino logger: the lines are safe without the redaction of serve's logger
    const log = pino({ level: 'info' }, sink);
    app = createApp({ ...h.deps, store, log, logins: new Logins({ maxRunning: 1, maxWaiting: 0 }) });
    const res = await app.request(
      `/api/greader/accounts/ClientLogin?Email=${API_USER}&Passwd=${encodeURIComponent(API_PASSWORD)}`,
    );
    auth = /Auth=(\S+)/.exec(await res.text())?.[1] ?? '';
    assert.ok(auth.length > 20);
  });
  after(async () => {
    await h.close();
    await backend?.cleanup();
  });

  it('logs a Google Reader 4xx with path, query (its write token hidden), status and reason', async () => {
    const res = await app.request('/api/greader/reader/api/0/no-such-call?output=json&T=write-token-value', {
      headers: { authorization: `GoogleLogin auth=${auth}` },
    });
    assert.equal(res.status, 404);
    const line = last();
    assert.deepEqual(
      [line?.level, line?.api, line?.path, line?.query, line?.status, line?.reason],
      [
        40,
        'greader',
        '/api/greader/reader/api/0/no-such-call',
        'output=json&T=***',
        404,
        'greader: unknown call',
      ],
    );
  });

  it('logs refused tokens and passwords without them, and a feed URL in a stream id without its password', async () => {
    const stream = encodeURIComponent('feed/https://reader:feed-secret@feeds.example/a.xml');
    await app.request(`/api/greader/reader/api/0/stream/contents/${stream}?n=5`, {
      headers: { authorization: `GoogleLogin auth=${auth}x` },
    });
    assert.equal(last()?.status, 401);
    assert.equal(
      last()?.path,
      '/api/greader/reader/api/0/stream/contents/feed/https://reader:***@feeds.example/a.xml',
    );
    await app.request(`/api/greader/accounts/ClientLogin?Email=${API_USER}&Passwd=wrong-password-here`);
    assert.deepEqual([last()?.status, last()?.query], [401, `Email=${API_USER}&Passwd=***`]);
    await app.request('/microsub?action=timeline&access_token=not-a-valid-token-value');
    assert.deepEqual(
      [last()?.api, last()?.status, last()?.reason],
      ['microsub', 401, 'microsub: the access token is not valid'],
    );
    assert.equal(last()?.query, 'action=timeline&access_token=***');
    await app.request(`/microsub?action=no-such-action`, { headers: { authorization: `Bearer ${h.token}` } });
    assert.equal(last()?.status, 400);
    assert.match(last()?.reason ?? '', /action/);
    for (const secret of [
      auth,
      'feed-secret',
      'wrong-password-here',
      'not-a-valid-token-value',
      h.token,
      API_PASSWORD,
    ])
      assert.ok(!logged.includes(secret), `the log holds ${secret.slice(0, 6)}...`);
  });

  it('logs Fever refusals that are 4xx/5xx (a body too large) with their reason', async () => {
    const res = await app.request('/api/fever?api', {
      method: 'POST',
      body: 'api_key=' + 'a'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 413);
    assert.deepEqual([last()?.api, last()?.path, last()?.status], ['fever', '/api/fever', 413]);
    assert.match(last()?.reason ?? '', /body exceeds/);
  });

  it('logs a 5xx at error level with the answer it gave', async () => {
    logged += `${JSON.stringify({ msg: 'fail-next' })}\n`;
    const res = await app.request('/api/greader/reader/api/0/tag/list?output=json', {
      headers: { authorization: `GoogleLogin auth=${auth}` },
    });
    assert.equal(res.status, 500);
    assert.deepEqual(
      [last()?.level, last()?.status, last()?.path],
      [50, 500, '/api/greader/reader/api/0/tag/list'],
    );
    assert.match(last()?.reason ?? '', /something went wrong/);
  });

  it('logs no successful answer', async () => {
    const before = lines().length;
    const res = await app.request('/api/greader/reader/api/0/user-info', {
      headers: { authorization: `GoogleLogin auth=${auth}` },
    });
    assert.equal(res.status, 200);
    assert.equal(lines().length, before);
  });
});
