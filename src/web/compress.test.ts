import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { compress, negotiateEncoding } from './compress.js';

const PAGE = `<!DOCTYPE html><p>${'tidings '.repeat(2000)}</p>`;

function app(): Hono {
  const a = new Hono();
  a.use('*', compress());
  a.get('/page', (c) => c.html(PAGE));
  a.get('/small', (c) => c.html('<p>hi</p>'));
  a.get('/events', (c) => c.body('data: x\n\n'.repeat(500), 200, { 'content-type': 'text/event-stream' }));
  a.get('/png', (c) => c.body(new Uint8Array(4000), 200, { 'content-type': 'image/png' }));
  return a;
}

describe('compress', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    assert.equal(negotiateEncoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(negotiateEncoding('gzip'), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip;q=0.5'), 'gzip');
    assert.equal(negotiateEncoding('*'), 'br');
    assert.equal(negotiateEncoding('identity'), undefined);
    assert.equal(negotiateEncoding(undefined), undefined);
  });

  it('sends HTML as brotli or gzip as asked, and the same bytes once decoded', async () => {
    const br = await app().request('/page', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(br.headers.get('content-encoding'), 'br');
    assert.match(br.headers.get('vary') ?? '', /Accept-Encoding/);
    const brBytes = Buffer.from(await br.arrayBuffer());
    assert.ok(brBytes.length < PAGE.length / 10);
    assert.equal(brotliDecompressSync(brBytes).toString(), PAGE);
    const gz = await app().request('/page', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.equal(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString(), PAGE);
  });

  it('leaves alone what a client does not accept, small bodies, images and event streams', async () => {
    const plain = await app().request('/page');
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(await plain.text(), PAGE);
    const headers = { 'accept-encoding': 'br, gzip' };
    const small = await app().request('/small', { headers });
    assert.equal(small.headers.get('content-encoding'), null);
    assert.equal(await small.text(), '<p>hi</p>');
    assert.equal((await app().request('/png', { headers })).headers.get('content-encoding'), null);
    assert.equal((await app().request('/events', { headers })).headers.get('content-encoding'), null);
  });
});
