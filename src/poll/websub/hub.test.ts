import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askHub } from './hub.js';

describe('WebSub requests to hubs', () => {
  const options = { allowPrivateAddresses: false, timeoutMs: 2_000 };

  it('goes through the SSRF guard: no private address, no scheme but http(s)', async () => {
    const local = await askHub('http://127.0.0.1:9/hub', { 'hub.mode': 'subscribe' }, options);
    assert.equal(local.ok, false);
    assert.match(local.ok ? '' : local.message, /^websub: .*127\.0\.0\.1/);
    const ftp = await askHub('ftp://example.com/hub', { 'hub.mode': 'subscribe' }, options);
    assert.equal(ftp.ok, false);
    const notUrl = await askHub('not a url', {}, options);
    assert.deepEqual(notUrl, { ok: false, message: 'websub: the hub "not a url" is not a URL' });
  });
});
