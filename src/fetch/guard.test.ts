import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, it } from 'node:test';
import { send, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { FetchError } from './fetch-error.js';
import {
  checkTarget,
  closeSharedAgents,
  createGuardedAgent,
  createGuardedLookup,
  isPublicAddress,
  type Resolver,
} from './guard.js';
import { fetchFeed } from './request.js';
import type { FetchOutcome } from './types.js';

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast and unspecified IPv4', () => {
    const refused = [
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '127.0.0.1',
      '127.8.9.10',
      '169.254.169.254', // cloud metadata endpoints live here
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.1',
      '255.255.255.255',
      '0.0.0.0',
      '192.0.2.10', // documentation
      '240.0.0.1', // reserved
    ];
    for (const ip of refused) assert.equal(isPublicAddress(ip), false, ip);
  });

  it('refuses loopback, unique-local, link-local and multicast IPv6', () => {
    for (const ip of [
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'febf::1',
      'ff02::1',
      '2001:db8::1',
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
  });

  it('judges IPv6 addresses that embed IPv4 by the IPv4 inside', () => {
    assert.equal(isPublicAddress('::ffff:127.0.0.1'), false);
    assert.equal(isPublicAddress('::ffff:7f00:1'), false);
    assert.equal(isPublicAddress('::ffff:10.1.2.3'), false);
    assert.equal(isPublicAddress('::127.0.0.1'), false);
    assert.equal(isPublicAddress('64:ff9b::10.0.0.1'), false);
    assert.equal(isPublicAddress('2002:7f00:1::'), false);
    assert.equal(isPublicAddress('::ffff:93.184.216.34'), true);
    assert.equal(isPublicAddress('64:ff9b::93.184.216.34'), true);
  });

  it('accepts public addresses', () => {
    for (const ip of [
      '93.184.216.34',
      '1.1.1.1',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
    ]) {
      assert.equal(isPublicAddress(ip), true, ip);
    }
  });

  it('is false for things that are not addresses', () => {
    for (const text of ['', 'localhost', 'example.com', '999.1.1.1', '1.2.3']) {
      assert.equal(isPublicAddress(text), false, text);
    }
  });
});

describe('checkTarget', () => {
  it('allows only http and https', () => {
    assert.equal(checkTarget(new URL('https://example.com/feed'), false), undefined);
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'data:,x']) {
      assert.equal(checkTarget(new URL(url), true)?.kind, 'unsupported_scheme', url);
    }
  });

  it('refuses literal private IPs, in every spelling the URL parser accepts, unless allowed', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://[::1]/',
      'http://[::ffff:10.0.0.1]/',
    ]) {
      assert.equal(checkTarget(new URL(url), false)?.kind, 'private_address', url);
      assert.equal(checkTarget(new URL(url), true), undefined, url);
    }
  });
});

function fakeResolver(table: Record<string, string[]>): Resolver {
  return async (hostname) =>
    (table[hostname] ?? []).map(
      (address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }),
    );
}

function lookupOnce(lookup: ReturnType<typeof createGuardedLookup>, host: string, all: boolean) {
  return new Promise<{ error: unknown; result: unknown }>((resolve) => {
    lookup(host, { all }, (error, result) => resolve({ error, result }));
  });
}

describe('createGuardedLookup', () => {
  const resolve = fakeResolver({
    'public.example': ['93.184.216.34', '2606:2800:220:1::248'],
    'mixed.example': ['93.184.216.34', '10.0.0.7'],
  });
  const lookup = createGuardedLookup(isPublicAddress, resolve);

  it('passes public answers through, in both callback shapes', async () => {
    const all = await lookupOnce(lookup, 'public.example', true);
    assert.equal(all.error, null);
    assert.deepEqual(all.result, [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::248', family: 6 },
    ]);
    const one = await lookupOnce(lookup, 'public.example', false);
    assert.equal(one.result, '93.184.216.34');
  });

  it('refuses a name when any of its addresses is private', async () => {
    const { error } = await lookupOnce(lookup, 'mixed.example', true);
    assert.ok(error instanceof FetchError);
    assert.equal(error.kind, 'private_address');
    assert.equal(error.context.address, '10.0.0.7');
  });
});

describe('fetchFeed with the SSRF guard', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      '/feed': (_req, res) => send(res, 200, '<rss/>'),
      '/to-internal': (_req, res) =>
        send(res, 302, '', { location: `http://internal.example:${server.port}/feed` }),
      '/to-loopback': (_req, res) => send(res, 302, '', { location: `http://127.0.0.1:${server.port}/feed` }),
    });
  });
  after(async () => {
    await server.close();
    await closeSharedAgents();
  });

  const errorOf = (outcome: FetchOutcome) => {
    assert.equal(outcome.kind, 'error');
    return (outcome as Extract<FetchOutcome, { kind: 'error' }>).error;
  };

  it('refuses 127.0.0.1 by default and fetches it with allowPrivateAddresses', async () => {
    const before = server.requests.length;
    const refused = errorOf(await fetchFeed({ url: `${server.url}/feed` }));
    assert.equal(refused.kind, 'private_address');
    assert.match(
      refused.message,
      /^fetch: refused to connect to 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a private or local address$/,
    );
    assert.equal(server.requests.length, before, 'no request reached the server');
    const allowed = await fetchFeed({ url: `${server.url}/feed`, allowPrivateAddresses: true });
    assert.equal(allowed.kind, 'ok');
  });

  it('refuses a name that resolves to loopback (checked after DNS)', async () => {
    const refused = errorOf(await fetchFeed({ url: `http://localhost:${server.port}/feed` }));
    assert.equal(refused.kind, 'private_address');
    assert.equal(refused.url, `http://localhost:${server.port}/feed`);
  });

  describe('on redirect hops', () => {
    // "feeds.example" stands in for a public host: the policy trusts the test server's address only
    // for that name's answer, and internal.example resolves to a private address.
    const agent = createGuardedAgent({
      allowPrivateAddresses: false,
      connectTimeoutMs: 1000,
      resolve: fakeResolver({ 'feeds.example': ['127.0.0.1'], 'internal.example': ['10.0.0.7'] }),
      policy: (address) => address === '127.0.0.1' || isPublicAddress(address),
    });
    after(() => agent.destroy());

    it('fetches from the stand-in public host', async () => {
      const outcome = await fetchFeed({ url: `http://feeds.example:${server.port}/feed` }, agent);
      assert.equal(outcome.kind, 'ok');
    });

    it('refuses a redirect to a host that resolves to a private address', async () => {
      const outcome = await fetchFeed({ url: `http://feeds.example:${server.port}/to-internal` }, agent);
      const error = errorOf(outcome);
      assert.equal(error.kind, 'private_address');
      assert.equal(error.context.address, '10.0.0.7');
      assert.equal(outcome.url, `http://internal.example:${server.port}/feed`);
      assert.equal(outcome.redirects.length, 1);
    });

    it('refuses a redirect to a literal loopback address', async () => {
      const before = server.requests.length;
      const outcome = await fetchFeed({ url: `http://feeds.example:${server.port}/to-loopback` }, agent);
      assert.equal(errorOf(outcome).kind, 'private_address');
      assert.equal(server.requests.length, before + 1, 'only the first hop reached the server');
    });
  });
});
