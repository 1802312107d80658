import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

// Installing the reader on a phone (manifest, icons) and compressed pages (issue 16).
describe('web: manifest and compression', () => {
  let h: WebHarness;
  let client: Client;

  before(async () => {
    h = await webHarness();
    client = await signedIn(h.app);
  });
  after(() => h.close());

  it('serves a web app manifest with PNG icons before sign-in, and links it from every page', async () => {
    const res = await h.app.request('/manifest.webmanifest');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      start_url: string;
      display: string;
      icons: { src: string; sizes: string }[];
    };
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.display, 'standalone');
    const icon = manifest.icons.find((i) => i.sizes === '512x512');
    assert.ok(icon);
    const png = await h.app.request(icon.src);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    assert.deepEqual([...bytes.subarray(1, 4)], [...Buffer.from('PNG')]);
    assert.equal(bytes.readUInt32BE(16), 512);
    const page = await client.get('/channels');
    assert.match(page.text, /<link rel="manifest" href="\/manifest\.webmanifest"\/?>/);
    assert.match(page.text, /<meta name="theme-color" content="#2458b3"\/?>/);
  });

  it('compresses pages with brotli for browsers that take it, but not the Microsub endpoint', async () => {
    const login = await h.app.request('/login', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(login.headers.get('content-encoding'), 'br');
    assert.match(brotliDecompressSync(Buffer.from(await login.arrayBuffer())).toString(), /password/);
    const css = await h.app.request('/static/app.css', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(css.headers.get('content-encoding'), 'gzip');
    const microsub = await h.app.request('/microsub?action=channels', {
      headers: { 'accept-encoding': 'br', authorization: 'Bearer nope' },
    });
    assert.equal(microsub.headers.get('content-encoding'), null);
  });
});
