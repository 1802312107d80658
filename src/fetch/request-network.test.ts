import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../../test/helpers/http-server.js';
import { closeSharedAgents, createGuardedAgent } from './guard.js';
import { fetchFeed } from './request.js';
import type { FetchOutcome, FetchRequest } from './types.js';

let server: TestServer;

before(async () => {
  server = await startServer({
    // a redirect to what is not fetched: the error names where it led, not the URL asked
    '/to-file': (_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    },
    '/stall-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.write('<rss>');
    },
    '/stall-headers': () => {},
    '/reset': (req, res) => {
      res.writeHead(200, { 'content-length': 1000 });
      res.write('<rss>', () => req.socket.destroy());
    },
  });
});

after(async () => {
  await server.close();
  await closeSharedAgents();
});

function get(url: string, extra: Partial<FetchRequest> = {}): Promise<FetchOutcome> {
  return fetchFeed({ url, allowPrivateAddresses: true, ...extra });
}

function errorOf(outcome: FetchOutcome) {
  assert.equal(outcome.kind, 'error', `expected an error outcome, got ${outcome.kind}`);
  return (outcome as Extract<FetchOutcome, { kind: 'error' }>).error;
}

describe('fetchFeed: timeouts', () => {
  it('gives up on a server that sends headers and then stalls', async () => {
    const outcome = await get(`${server.url}/stall-body`, { timeoutMs: 200 });
    const error = errorOf(outcome);
    assert.equal(error.kind, 'timeout');
    assert.equal(error.context.phase, 'total');
    assert.equal(error.message, `fetch: timed out after 0.2 s waiting for 127.0.0.1:${server.port}`);
    assert.ok((error.elapsedMs ?? 0) >= 190 && outcome.durationMs < 2000, `took ${outcome.durationMs} ms`);
  });

  it('gives up on a server that never sends headers', async () => {
    const error = errorOf(await get(`${server.url}/stall-headers`, { timeoutMs: 150 }));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.context.phase, 'total');
  });

  it('names the connect phase when resolving and connecting take too long', async () => {
    const agent = createGuardedAgent({
      allowPrivateAddresses: false,
      connectTimeoutMs: 100,
      resolve: () => new Promise(() => {}),
    });
    try {
      const outcome = await fetchFeed({ url: 'http://feeds.example/', connectTimeoutMs: 100 }, agent);
      const error = errorOf(outcome);
      assert.equal(error.kind, 'timeout');
      assert.equal(error.context.phase, 'connect');
      assert.equal(error.message, 'fetch: timed out after 0.1 s connecting to feeds.example');
    } finally {
      await agent.destroy();
    }
  });
});

describe('fetchFeed: network failures', () => {
  it('reports connection refused on a closed port', async () => {
    const closed = await startServer({});
    await closed.close();
    const error = errorOf(await get(`${closed.url}/feed`));
    assert.equal(error.kind, 'connection_refused');
    assert.equal(error.message, `fetch: 127.0.0.1:${closed.port} refused the connection`);
  });

  it('reports a connection dropped mid-body', async () => {
    const error = errorOf(await get(`${server.url}/reset`));
    assert.equal(error.kind, 'connection_reset');
  });

  it('reports a host that does not resolve', async () => {
    const agent = createGuardedAgent({
      allowPrivateAddresses: false,
      connectTimeoutMs: 1000,
      resolve: async () => [],
    });
    try {
      const error = errorOf(await fetchFeed({ url: 'http://no-such-host.example/feed' }, agent));
      assert.equal(error.kind, 'dns');
      assert.equal(error.message, 'fetch: could not resolve no-such-host.example (no such host)');
    } finally {
      await agent.destroy();
    }
  });

  it('reports a cancelled fetch', async () => {
    const controller = new AbortController();
    const pending = get(`${server.url}/stall-headers`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    assert.equal(errorOf(await pending).kind, 'aborted');
  });

  it('reports URLs it cannot or will not fetch', async () => {
    assert.equal(errorOf(await get('not a url')).kind, 'invalid_url');
    const file = errorOf(await get('file:///etc/passwd'));
    assert.equal(file.kind, 'unsupported_scheme');
    assert.equal(file.message, 'fetch: file URLs are not fetched, only http and https (file:///etc/passwd)');
    assert.equal(errorOf(await get('ftp://example.com/feed')).kind, 'unsupported_scheme');
    const redirected = errorOf(await get(`${server.url}/to-file`));
    assert.equal(
      redirected.message,
      'fetch: file URLs are not fetched, only http and https (file:///etc/passwd)',
    );
  });

  it('throws for a request object that is not one', async () => {
    await assert.rejects(fetchFeed({ url: 42 } as unknown as FetchRequest), TypeError);
    await assert.rejects(fetchFeed({ url: 'http://x/', timeoutMs: -1 }), TypeError);
  });
});

describe('fetchFeed: TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fetch-helper-tls-'));
  let hasOpenssl = true;
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
  } catch {
    hasOpenssl = false;
  }
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names a self-signed certificate', {
    skip: hasOpenssl ? false : 'openssl is not installed',
  }, async () => {
    const tls = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.end('<rss/>'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = tls.address() as AddressInfo;
      const error = errorOf(await get(`https://127.0.0.1:${port}/feed`));
      assert.equal(error.kind, 'tls');
      assert.equal(error.message, `fetch: TLS error with 127.0.0.1:${port}: the certificate is self-signed`);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
