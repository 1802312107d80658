import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redirectTo, send, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { closeSharedAgents } from './guard.js';
import { DEFAULT_USER_AGENT, FEED_ACCEPT } from './headers.js';
import { fetchFeed } from './request.js';
import type { FetchOutcome, FetchRequest } from './types.js';

const FEED = '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>';
const ETAG = '"v1"';
const LAST_MODIFIED = 'Tue, 15 Nov 1994 12:45:26 GMT';
const NOW = Date.parse('2024-05-01T12:00:00Z');

let server: TestServer;
let other: TestServer;

before(async () => {
  other = await startServer({
    '/private': (req, res) => send(res, 200, req.headers.authorization ?? 'none'),
  });
  server = await startServer({
    '/feed.xml': (req, res) => {
      const fresh =
        req.headers['if-none-match'] === ETAG || req.headers['if-modified-since'] === LAST_MODIFIED;
      const headers = { etag: ETAG, 'last-modified': LAST_MODIFIED, 'cache-control': 'max-age=600' };
      if (fresh) send(res, 304, '', headers);
      else send(res, 200, FEED, { ...headers, 'content-type': 'application/rss+xml; charset=utf-8' });
    },
    '/moved-1': redirectTo('/moved-2', 301),
    '/moved-2': redirectTo('/temporary', 308),
    '/temporary': redirectTo('feed.xml', 302),
    '/loop-a': redirectTo('/loop-b', 302),
    '/loop-b': redirectTo('/loop-a', 302),
    '/chain': (req, res) => {
      const step = Number(new URL(req.url ?? '', server.url).searchParams.get('n') ?? '0');
      send(res, 302, '', { location: `/chain?n=${step + 1}` });
    },
    '/no-location': (_req, res) => send(res, 302),
    '/to-file': redirectTo('file:///etc/passwd', 302),
    '/gone': (_req, res) => send(res, 410, 'gone'),
    '/missing': (_req, res) => send(res, 404, 'nope'),
    '/teapot': (_req, res) => send(res, 418, ''),
    '/broken': (_req, res) => send(res, 500, 'oops'),
    '/slow-down': (_req, res) => send(res, 429, '', { 'retry-after': '120' }),
    '/maintenance': (_req, res) => send(res, 503, '', { 'retry-after': 'Wed, 01 May 2024 12:05:00 GMT' }),
    '/denied': (_req, res) => send(res, 403, 'Forbidden'),
    '/challenge': (_req, res) => send(res, 403, '<html></html>', { 'cf-mitigated': 'challenge' }),
    '/just-a-moment': (_req, res) =>
      send(res, 503, '<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>', {
        'content-type': 'text/html',
      }),
    '/private': (req, res) =>
      send(res, req.headers.authorization ? 200 : 401, req.headers.authorization ?? ''),
    '/private-moved': redirectTo('/private', 301),
    '/private-elsewhere': (_req, res) => send(res, 302, '', { location: `${other.url}/private` }),
    '/empty': (_req, res) => send(res, 200, ''),
    '/no-content': (_req, res) => send(res, 204),
  });
});

after(async () => {
  await server.close();
  await other.close();
  await closeSharedAgents();
});

function get(path: string, extra: Partial<FetchRequest> = {}): Promise<FetchOutcome> {
  return fetchFeed({ url: server.url + path, allowPrivateAddresses: true, now: () => NOW, ...extra });
}

function expectError(outcome: FetchOutcome): Extract<FetchOutcome, { kind: 'error' }> {
  assert.equal(outcome.kind, 'error', `expected an error outcome, got ${outcome.kind}`);
  return outcome as Extract<FetchOutcome, { kind: 'error' }>;
}

describe('fetchFeed: conditional GET', () => {
  it('returns the body with its validators, then sends them back and gets not_modified', async () => {
    const first = await get('/feed.xml');
    assert.equal(first.kind, 'ok');
    if (first.kind !== 'ok') return;
    assert.equal(new TextDecoder().decode(first.body), FEED);
    assert.equal(first.status, 200);
    assert.equal(first.etag, ETAG);
    assert.equal(first.lastModified, LAST_MODIFIED);
    assert.equal(first.contentType, 'application/rss+xml; charset=utf-8');
    assert.equal(first.maxAgeSeconds, 600);
    assert.equal(first.bytes, FEED.length);
    assert.deepEqual(first.redirects, []);

    const second = await get('/feed.xml', { etag: first.etag, lastModified: first.lastModified });
    assert.equal(second.kind, 'not_modified');
    assert.equal(second.kind === 'not_modified' && second.etag, ETAG);
    assert.equal(second.kind === 'not_modified' && second.maxAgeSeconds, 600);
    const sent = server.requests.at(-1)?.headers;
    assert.equal(sent?.['if-none-match'], ETAG);
    assert.equal(sent?.['if-modified-since'], LAST_MODIFIED);
  });

  it('sends no validators on the unconditional check', async () => {
    const outcome = await get('/feed.xml', { etag: ETAG, lastModified: LAST_MODIFIED, conditional: false });
    assert.equal(outcome.kind, 'ok');
    const sent = server.requests.at(-1)?.headers;
    assert.equal(sent?.['if-none-match'], undefined);
    assert.equal(sent?.['if-modified-since'], undefined);
  });

  it('identifies itself and asks for feeds and compression', async () => {
    await get('/feed.xml');
    const sent = server.requests.at(-1)?.headers;
    assert.equal(sent?.['user-agent'], DEFAULT_USER_AGENT);
    assert.equal(sent?.accept, FEED_ACCEPT);
    assert.equal(sent?.['accept-encoding'], 'gzip, deflate, br');
    await get('/feed.xml', { userAgent: 'custom/1.0' });
    assert.equal(server.requests.at(-1)?.headers['user-agent'], 'custom/1.0');
  });

  it('accepts an empty 200 body and a 204', async () => {
    for (const path of ['/empty', '/no-content']) {
      const outcome = await get(path);
      assert.equal(outcome.kind, 'ok', path);
      assert.equal(outcome.kind === 'ok' && outcome.bytes, 0);
    }
  });
});

describe('fetchFeed: redirects', () => {
  it('records 301 and 308 as permanent, 302 as temporary, and returns the final URL', async () => {
    const outcome = await get('/moved-1');
    assert.equal(outcome.kind, 'ok');
    assert.equal(outcome.url, `${server.url}/feed.xml`);
    assert.deepEqual(outcome.redirects, [
      { from: `${server.url}/moved-1`, to: `${server.url}/moved-2`, status: 301, permanent: true },
      { from: `${server.url}/moved-2`, to: `${server.url}/temporary`, status: 308, permanent: true },
      { from: `${server.url}/temporary`, to: `${server.url}/feed.xml`, status: 302, permanent: false },
    ]);
  });

  it('stops a redirect loop', async () => {
    const outcome = expectError(await get('/loop-a'));
    assert.equal(outcome.error.kind, 'redirect_loop');
    assert.equal(outcome.redirects.length, 2);
    assert.match(
      outcome.error.message,
      /^fetch: redirect loop: http:\/\/127\.0\.0\.1:\d+\/loop-a was already visited$/,
    );
  });

  it('stops after maxRedirects hops', async () => {
    const before = server.requests.length;
    const outcome = expectError(await get('/chain', { maxRedirects: 3 }));
    assert.equal(outcome.error.kind, 'too_many_redirects');
    assert.equal(outcome.redirects.length, 4);
    assert.deepEqual(
      server.requests.slice(before).map((r) => r.path),
      ['/chain', '/chain?n=1', '/chain?n=2', '/chain?n=3'],
      'the fourth redirect is not followed',
    );
    assert.match(outcome.error.message, /^fetch: more than 3 redirects \(the last to .*n=4\)$/);
  });

  it('follows no redirect at all with maxRedirects 0', async () => {
    const outcome = expectError(await get('/temporary', { maxRedirects: 0 }));
    assert.equal(outcome.error.kind, 'too_many_redirects');
  });

  it('reports a redirect without a Location', async () => {
    const outcome = expectError(await get('/no-location'));
    assert.equal(outcome.error.kind, 'bad_redirect');
    assert.equal(outcome.error.message, 'fetch: the server answered 302 Found without a Location header');
  });

  it('refuses a redirect to a file: URL', async () => {
    const outcome = expectError(await get('/to-file'));
    assert.equal(outcome.error.kind, 'unsupported_scheme');
    assert.equal(outcome.redirects[0]?.to, 'file:///etc/passwd');
  });
});

describe('fetchFeed: credentials in the URL', () => {
  const withCredentials = (path: string) =>
    server.url.replace('http://', 'http://reader:s%C3%A9cret@') + path;
  const basic = `Basic ${Buffer.from('reader:sécret').toString('base64')}`;
  const text = (outcome: FetchOutcome) =>
    outcome.kind === 'ok' ? new TextDecoder().decode(outcome.body) : '';

  it('sends user:password as Basic credentials', async () => {
    assert.equal(
      text(await fetchFeed({ url: withCredentials('/private'), allowPrivateAddresses: true })),
      basic,
    );
  });

  it('keeps them across a redirect to the same origin, and in the recorded URL', async () => {
    const outcome = await fetchFeed({ url: withCredentials('/private-moved'), allowPrivateAddresses: true });
    assert.equal(text(outcome), basic);
    assert.equal(outcome.url, withCredentials('/private'));
  });

  it('never sends them to another origin', async () => {
    const outcome = await fetchFeed({
      url: withCredentials('/private-elsewhere'),
      allowPrivateAddresses: true,
    });
    assert.equal(text(outcome), 'none');
  });

  it('keeps the password out of messages', async () => {
    const outcome = expectError(await fetchFeed({ url: 'ftp://reader:secret@example.com/feed' }));
    assert.equal(
      outcome.error.message,
      'fetch: ftp URLs are not fetched, only http and https (ftp://example.com/feed)',
    );
  });
});

describe('fetchFeed: statuses', () => {
  it('maps 410 to gone', async () => {
    const outcome = await get('/gone');
    assert.deepEqual(
      { ...outcome, durationMs: 0 },
      {
        kind: 'gone',
        status: 410,
        url: `${server.url}/gone`,
        redirects: [],
        durationMs: 0,
      },
    );
  });

  it('maps 404, 418 and 500 to errors with the status in words', async () => {
    const cases: [string, string, string][] = [
      ['/missing', 'not_found', 'fetch: the server answered 404 Not Found'],
      ['/teapot', 'http_client_error', "fetch: the server answered 418 I'm a Teapot"],
      ['/broken', 'http_server_error', 'fetch: the server answered 500 Internal Server Error'],
    ];
    for (const [path, kind, message] of cases) {
      const outcome = expectError(await get(path));
      assert.equal(outcome.error.kind, kind, path);
      assert.equal(outcome.error.message, message);
      assert.equal(outcome.status, outcome.error.status);
    }
  });

  it('reads Retry-After seconds on 429', async () => {
    const outcome = expectError(await get('/slow-down'));
    assert.equal(outcome.error.kind, 'rate_limited');
    assert.equal(outcome.retryAfterSeconds, 120);
    assert.equal(
      outcome.error.message,
      'fetch: the server answered 429 Too Many Requests; retry after 120 s',
    );
  });

  it('reads a Retry-After HTTP date on 503 relative to the injected clock', async () => {
    const outcome = expectError(await get('/maintenance'));
    assert.equal(outcome.error.kind, 'unavailable');
    assert.equal(outcome.retryAfterSeconds, 300);
  });

  it('tells a bot challenge from a plain 403', async () => {
    assert.equal(expectError(await get('/denied')).error.kind, 'forbidden');
    const flagged = expectError(await get('/challenge'));
    assert.equal(flagged.error.kind, 'bot_challenge');
    assert.match(
      flagged.error.message,
      /^fetch: the server answered 403 Forbidden with a bot challenge \(Cloudflare\)/,
    );
    const page = expectError(await get('/just-a-moment'));
    assert.equal(page.error.kind, 'bot_challenge');
    assert.equal(page.status, 503);
  });
});
