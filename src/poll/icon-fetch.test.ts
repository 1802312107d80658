import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import { cancellableResolver, hostsFileNames } from './icon-fetch.js';

describe('the resolver of icon lookups', () => {
  // a DNS server on 127.0.0.1 that never answers, as one that drops queries
  const silent = createSocket('udp4');
  let server: string;

  before(async () => {
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    server = `127.0.0.1:${silent.address().port}`;
  });
  after(() => silent.close());

  it('reads the names of a hosts file', () => {
    const names = hostsFileNames('# comment\n127.0.0.1\tlocalhost Local\n::1 ip6-localhost # more\n\n  \n');
    assert.deepEqual([...names].sort(), ['ip6-localhost', 'local', 'localhost']);
  });

  it('answers the names of /etc/hosts (localhost) through the system, without asking DNS', async () => {
    const { resolve } = cancellableResolver({ servers: [server] });
    const found = await resolve('LocalHost');
    assert.ok(found.some((a) => a.address === '127.0.0.1' || a.address === '::1'));
  });

  it('gives up at once when cancelled, while the DNS server stays silent', async () => {
    const { resolve, cancel } = cancellableResolver({ servers: [server] });
    const pending = resolve('nowhere.example');
    const cancelled = Date.now();
    setTimeout(cancel, 50);
    await assert.rejects(pending, (error: NodeJS.ErrnoException) => error.code === 'ENOTFOUND');
    assert.ok(Date.now() - cancelled < 1000, `took ${Date.now() - cancelled} ms`);
  });
});
