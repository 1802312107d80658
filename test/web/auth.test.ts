import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PASSWORD_SETTING, SESSIONS_NOT_BEFORE_SETTING } from '../../src/auth/password-hash.js';
import { createApp } from '../../src/server/app.js';
import { Client, PASSWORD, signedIn, type WebHarness, webHarness } from './harness.js';

describe('web: sign-in, sessions and CSRF', () => {
  let h: WebHarness;
  before(async () => {
    h = await webHarness();
  });
  after(() => h.close());

  it('sends every page to the login form, which carries a CSP without inline script', async () => {
    for (const path of [
      '/',
      '/channels',
      '/subscriptions',
      '/feeds',
      '/opml',
      '/tokens',
      '/c/notifications',
      '/search?q=x',
    ]) {
      const answer = await new Client(h.app).get(path);
      assert.equal(answer.status, 303, path);
      assert.match(answer.headers.get('location') ?? '', /^\/login\?next=/, path);
    }
    const login = await new Client(h.app).get('/login');
    assert.equal(login.status, 200);
    assert.match(login.text, /name="password"/);
    const csp = login.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      'img-src',
    ])
      assert.ok(csp.includes(directive), `${directive} in ${csp}`);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(login.headers.get('x-frame-options'), 'DENY');
    assert.equal(login.headers.get('x-content-type-options'), 'nosniff');
  });

  it('signs in with the password and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const client = new Client(h.app);
    await client.get('/login');
    const answer = await client.post('/login', { password: PASSWORD, next: '/feeds' });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get('location'), '/feeds');
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('tidings_session='));
    assert.ok(cookie);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.doesNotMatch(cookie, /Secure/);
    const page = await client.get('/feeds');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const client = new Client(h.app, 'https://reader.example');
    await client.get('https://reader.example/login');
    const answer = await client.post('https://reader.example/login', { password: PASSWORD });
    assert.equal(answer.status, 303);
    assert.match(answer.headers.getSetCookie().find((c) => c.startsWith('tidings_session=')) ?? '', /Secure/);
  });

  it('refuses a wrong password, a login form without its nonce, and a tampered cookie', async () => {
    const client = new Client(h.app);
    await client.get('/login');
    assert.equal((await client.post('/login', { password: 'nope' })).status, 401);
    assert.equal((await client.post('/login', { password: PASSWORD, _csrf: 'forged' })).status, 403);
    const session = await signedIn(h.app);
    const value = session.cookies.get('tidings_session') ?? '';
    session.cookies.set('tidings_session', value.replace(/^[^:%]+/, 'someone-else'));
    assert.equal((await session.get('/feeds')).status, 303);
  });

  it('refuses a POST without the session CSRF token, or from another origin', async () => {
    const client = await signedIn(h.app);
    const noToken = await client.post('/channels', { name: 'Sneaky', _csrf: null });
    assert.equal(noToken.status, 403);
    const wrongToken = await client.post('/channels', { name: 'Sneaky', _csrf: 'x'.repeat(43) });
    assert.equal(wrongToken.status, 403);
    const crossSite = await client.post('/channels', { name: 'Sneaky' }, { origin: 'https://evil.example' });
    assert.equal(crossSite.status, 403);
    const crossFetch = await client.post(
      '/channels',
      { name: 'Sneaky' },
      { 'sec-fetch-site': 'cross-site', origin: 'null' },
    );
    assert.equal(crossFetch.status, 403);
    assert.ok(!(await h.store.channels.list()).some((ch) => ch.name === 'Sneaky'));
    const json = await client.post('/channels', { _csrf: null }, { accept: 'application/json' });
    assert.equal(json.status, 403);
    assert.match(json.text, /"error":"forbidden"/);
  });

  it('takes a form whose POST names no origin (stripped on the way) when its CSRF token is right', async () => {
    const client = await signedIn(h.app);
    const form = await client.get('/channels');
    const token = /name="_csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const body = new URLSearchParams({ name: 'Stripped', _csrf: token });
    const sent = await h.app.request('/channels', {
      method: 'POST',
      body: body.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    assert.equal(sent.status, 303);
    assert.ok((await h.store.channels.list()).some((ch) => ch.name === 'Stripped'));
    // without the token it is refused as any other
    const refused = await h.app.request('/channels', {
      method: 'POST',
      body: new URLSearchParams({ name: 'Stripped2' }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    assert.equal(refused.status, 403);
  });

  it('answers 503 with a page that needs no database when the database does not answer', async () => {
    const refused = () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const accounts = new Proxy(h.store.accounts, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? () => Promise.reject(refused()) : value;
      },
    });
    const down = new Proxy(h.store, {
      get: (target, key, receiver) => {
        if (key === 'accounts') return accounts;
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const app = createApp({ ...h.deps, store: down });
    const page = await app.request('/all', { headers: { accept: 'text/html' } });
    assert.equal(page.status, 503);
    assert.equal(page.headers.get('retry-after'), '10');
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /The database is not answering just now/);
    const json = await app.request('/all', { headers: { accept: 'application/json' } });
    assert.equal(json.status, 503);
    assert.equal(((await json.json()) as { error: string }).error, 'unavailable');
  });

  it('logs out: the old cookie no longer works', async () => {
    const client = await signedIn(h.app);
    const cookie = client.cookies.get('tidings_session') ?? '';
    const answer = await client.post('/logout');
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get('location'), '/login');
    client.cookies.set('tidings_session', cookie);
    assert.equal((await client.get('/feeds')).status, 303);
  });

  it('logs out in every process: another serve on the same database refuses the cookie too', async () => {
    const client = await signedIn(h.app);
    // a second process: its own app and its own store connection on the same database
    const peerStore = await h.backend.openPeer(h.store);
    const peer = createApp({ ...h.deps, store: peerStore, poll: { ...h.deps.poll, store: peerStore } });
    const onPeer = new Client(peer);
    const cookie = client.cookies.get('tidings_session') ?? '';
    onPeer.cookies.set('tidings_session', cookie);
    assert.equal((await onPeer.get('/feeds')).status, 200, 'the session works in both');
    assert.equal((await client.post('/logout')).status, 303);
    assert.equal((await onPeer.get('/feeds')).status, 303, 'signed out there too');
    // and in a process started after (a restart): nothing of it was only in memory
    const restarted = new Client(
      createApp({ ...h.deps, store: peerStore, poll: { ...h.deps.poll, store: peerStore } }),
    );
    restarted.cookies.set('tidings_session', cookie);
    assert.equal((await restarted.get('/feeds')).status, 303);
    // a session of the same user that was not signed out goes on
    const other = await signedIn(peer);
    assert.equal((await other.get('/feeds')).status, 200);
    await peerStore.close();
  });

  it('ends every session when the password changes (tidings password)', async () => {
    const client = await signedIn(h.app);
    h.clock.advance(1000);
    await h.store.accounts.setUserSetting(SESSIONS_NOT_BEFORE_SETTING, String(h.clock.now().getTime()));
    assert.equal((await client.get('/feeds')).status, 303);
    assert.equal((await (await signedIn(h.app)).get('/feeds')).status, 200);
  });

  it('rate-limits failed logins: the sixth attempt within 15 minutes is refused, even with the password', async () => {
    const limited = await webHarness();
    try {
      const client = new Client(limited.app);
      await client.get('/login');
      for (let i = 0; i < 5; i++)
        assert.equal((await client.post('/login', { password: `guess ${i}` })).status, 401);
      const refused = await client.post('/login', { password: PASSWORD });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.match(refused.text, /Too many failed attempts/);
      limited.clock.advance(15 * 60_000 + 1000);
      assert.equal((await client.post('/login', { password: PASSWORD })).status, 303);
    } finally {
      await limited.close();
    }
  });

  it('stays closed and says how to set a password when none is set', async () => {
    const open = await webHarness({ withPassword: false });
    try {
      assert.equal(await open.store.accounts.getUserSetting(PASSWORD_SETTING), undefined);
      const client = new Client(open.app);
      assert.equal((await client.get('/feeds')).status, 303);
      const login = await client.get('/login');
      assert.match(login.text, /tidings password/);
      assert.doesNotMatch(login.text, /name="password"/);
      const refused = await client.post('/login', { password: '' });
      assert.equal(refused.status, 403);
      assert.ok(!client.cookies.has('tidings_session'));
    } finally {
      await open.close();
    }
  });

  it('serves the stylesheet and script without a session, and leaves /microsub to the Microsub endpoint', async () => {
    const client = new Client(h.app);
    const css = await client.get('/static/app.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
    const js = await client.get('/static/app.js');
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    const microsub = await client.get('/microsub/unknown');
    assert.notEqual(microsub.headers.get('location')?.startsWith('/login'), true);
  });
});
