import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

// Issue 12: a client's mistake is a 4xx with a message, never a 500.
describe('web: client mistakes are 4xx pages', () => {
  let h: WebHarness;
  let client: Client;

  before(async () => {
    h = await webHarness();
    client = await signedIn(h.app);
  });
  after(() => h.close());

  /** A POST with this body and content type, sent with the signed-in client's cookies. */
  async function rawPost(path: string, contentType: string, body: string, accept = 'text/html') {
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await h.app.request(path, {
      method: 'POST',
      headers: { cookie, origin: 'http://localhost', 'content-type': contentType, accept },
      body,
    });
    return { status: res.status, text: await res.text() };
  }

  const wrongBoundary = '--other\r\nContent-Disposition: form-data; name="name"\r\n\r\nNews\r\n--other--\r\n';

  it('answers 400 with a message to a multipart body whose boundary is not the declared one', async () => {
    const page = await rawPost('/channels', 'multipart/form-data; boundary=declared', wrongBoundary);
    assert.equal(page.status, 400);
    assert.match(page.text, /The form could not be read: its body does not match its content type/);
    assert.match(page.text, /<nav class="topnav"/, 'in the layout of a signed-in user');
  });

  it('answers 400 to a multipart body without a boundary, as JSON when the script asked for JSON', async () => {
    const page = await rawPost('/channels', 'multipart/form-data', 'x', 'application/json');
    assert.equal(page.status, 400);
    assert.equal(JSON.parse(page.text).error, 'invalid_request');
  });

  it('reads a malformed urlencoded body as far as it goes, never a 500', async () => {
    const page = await rawPost(
      '/channels',
      'application/x-www-form-urlencoded',
      `%ZZ=%%&name=%E0%A4&_csrf=${client.csrf}`,
    );
    assert.ok(page.status < 500, `status ${page.status}`);
    const garbled = await rawPost('/channels', 'application/x-www-form-urlencoded', '%%%&&==');
    assert.equal(garbled.status, 403, 'no CSRF token could be read from it');
  });

  it('answers 400 to a login with a malformed body and does not count it as a failed attempt', async () => {
    const fresh = await webHarness();
    try {
      for (let i = 0; i < 6; i++) {
        const res = await fresh.app.request('/login', {
          method: 'POST',
          headers: { origin: 'http://localhost', 'content-type': 'multipart/form-data; boundary=a' },
          body: wrongBoundary,
        });
        assert.equal(res.status, 400);
        assert.match(await res.text(), /The form could not be read/);
      }
      const signIn = await signedIn(fresh.app).then(
        () => 'signed in',
        (error: Error) => error.message,
      );
      assert.equal(signIn, 'signed in', 'six malformed posts did not lock the owner out');
    } finally {
      await fresh.close();
    }
  });

  for (const path of [
    '/c/notifications?after=nope',
    '/c/notifications?before=nope',
    '/search?q=x&after=nope',
    '/search?q=x&channel=notifications&after=bm9wZQ',
  ]) {
    it(`answers 400 to a paging cursor tidings did not write: ${path}`, async () => {
      const page = await client.get(path);
      assert.equal(page.status, 400);
      assert.match(page.text, /its paging cursor is edited or out of date/);
      const json = await client.get(path, { accept: 'application/json' });
      assert.equal(json.status, 400);
      assert.equal(JSON.parse(json.text).error, 'invalid_request');
    });
  }

  for (const path of ['/feeds/999999', '/feeds/abc', '/no/such/page', '/static/nope.css', '/c/nope']) {
    it(`answers ${path} with a 404 page in the app's layout`, async () => {
      const page = await client.get(path);
      assert.equal(page.status, 404);
      assert.match(page.text, /<h1>Something is off<\/h1>/);
      assert.match(page.text, /<nav class="topnav"/);
      assert.match(page.text, /<link rel="stylesheet"/);
    });
  }

  it('answers a POST to an unknown path with a 404 page, and JSON when asked for JSON', async () => {
    const page = await client.post('/no/such/form', { x: '1' });
    assert.equal(page.status, 404);
    assert.match(page.text, /There is no such page here/);
    const json = await client.get('/no/such/page', { accept: 'application/json' });
    assert.equal(json.status, 404);
    assert.equal(JSON.parse(json.text).error, 'not_found');
  });

  it('sends a stranger to the sign-in page for known and unknown paths alike (no leak)', async () => {
    for (const path of ['/feeds', '/no/such/page', '/feeds/999999']) {
      const res = await h.app.request(path);
      assert.equal(res.status, 303, path);
      assert.match(res.headers.get('location') ?? '', /^\/login\?next=/, path);
    }
  });

  it('leaves unknown /microsub paths to the Microsub endpoint', async () => {
    const res = await h.app.request('/microsub/nope');
    assert.equal(res.status, 404);
    assert.doesNotMatch(await res.text(), /Something is off/);
  });
});
