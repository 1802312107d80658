import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { send, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { closeSharedAgents } from './guard.js';
import { fetchFeed } from './request.js';
import type { FetchOutcome, FetchRequest } from './types.js';

const FEED = `<rss version="2.0"><channel><title>${'café '.repeat(2000)}</title></channel></rss>`;
const KiB = 1024;
const MiB = 1024 * KiB;

/** What the slow route saw: how much it wrote and whether the client hung up first. */
const slow = { written: 0, total: 4 * MiB, closedEarly: new Promise<boolean>(() => {}) };

let server: TestServer;

before(async () => {
  // 64 MiB of zeros compress to about 64 KiB: a small decompression bomb.
  const bomb = gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
  server = await startServer({
    '/gzip': (_req, res) => send(res, 200, gzipSync(FEED), { 'content-encoding': 'gzip' }),
    '/br': (_req, res) => send(res, 200, brotliCompressSync(FEED), { 'content-encoding': 'br' }),
    '/deflate': (_req, res) => send(res, 200, deflateSync(FEED), { 'content-encoding': 'deflate' }),
    '/raw-deflate': (_req, res) => send(res, 200, deflateRawSync(FEED), { 'content-encoding': 'deflate' }),
    '/gzip-then-br': (_req, res) =>
      send(res, 200, brotliCompressSync(gzipSync(FEED)), { 'content-encoding': 'gzip, br' }),
    '/gzip-reset': (req, res) => {
      const bytes = gzipSync(FEED);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bytes.length });
      res.write(bytes.subarray(0, 20), () => req.socket.destroy());
    },
    '/empty-gzip': (_req, res) => send(res, 200, '', { 'content-encoding': 'gzip' }),
    '/corrupt-gzip': (_req, res) => send(res, 200, 'not gzip at all', { 'content-encoding': 'gzip' }),
    '/zstd': (_req, res) => send(res, 200, 'xx', { 'content-encoding': 'zstd' }),
    '/bomb': (_req, res) => send(res, 200, bomb, { 'content-encoding': 'gzip' }),
    '/announced-large': (_req, res) => {
      res.writeHead(200, { 'content-length': 50 * MiB });
      res.write('x');
    },
    '/slow-large': (_req, res) => {
      slow.closedEarly = new Promise((resolve) => res.on('close', () => resolve(slow.written < slow.total)));
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(16 * KiB, 'a');
      const timer = setInterval(() => {
        if (res.destroyed || slow.written >= slow.total) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(chunk);
        slow.written += chunk.length;
      }, 2);
    },
  });
});

after(async () => {
  await server.close();
  await closeSharedAgents();
});

function get(path: string, extra: Partial<FetchRequest> = {}): Promise<FetchOutcome> {
  return fetchFeed({ url: server.url + path, allowPrivateAddresses: true, ...extra });
}

function errorOf(outcome: FetchOutcome) {
  assert.equal(outcome.kind, 'error', `expected an error outcome, got ${outcome.kind}`);
  return (outcome as Extract<FetchOutcome, { kind: 'error' }>).error;
}

describe('fetchFeed: compressed bodies', () => {
  for (const path of ['/gzip', '/br', '/deflate', '/raw-deflate', '/gzip-then-br']) {
    it(`decodes a ${path.slice(1)} body`, async () => {
      const outcome = await get(path);
      assert.equal(outcome.kind, 'ok');
      if (outcome.kind !== 'ok') return;
      assert.equal(new TextDecoder().decode(outcome.body), FEED);
      assert.equal(outcome.bytes, Buffer.byteLength(FEED));
      assert.ok(outcome.transferredBytes < outcome.bytes, 'the wire carried fewer bytes than were decoded');
    });
  }

  it('takes an empty body labelled gzip as empty', async () => {
    const outcome = await get('/empty-gzip');
    assert.equal(outcome.kind === 'ok' && outcome.bytes, 0);
  });

  it('reports a corrupt gzip body', async () => {
    const error = errorOf(await get('/corrupt-gzip'));
    assert.equal(error.kind, 'content_encoding');
    assert.match(error.message, /^fetch: could not decode the gzip body \(.+\)$/);
  });

  it('reports a connection dropped mid-gzip as a reset, not as bad gzip', async () => {
    assert.equal(errorOf(await get('/gzip-reset')).kind, 'connection_reset');
  });

  it('reports an encoding it cannot decode', async () => {
    const error = errorOf(await get('/zstd'));
    assert.equal(error.kind, 'content_encoding');
    assert.match(error.message, /zstd/);
  });
});

describe('fetchFeed: body limits', () => {
  it('stops a gzip bomb at the limit on the decompressed size', async () => {
    const outcome = await get('/bomb', { maxBodyBytes: MiB });
    const error = errorOf(outcome);
    assert.equal(error.kind, 'too_large');
    assert.equal(error.message, 'fetch: the body exceeds 1 MiB once decompressed');
    const bytes = outcome.kind === 'error' ? outcome.bytes : undefined;
    assert.ok(bytes !== undefined && bytes <= 2 * MiB, `stopped after ${bytes} decoded bytes`);
  });

  it('refuses a Content-Length over the limit before reading', async () => {
    const error = errorOf(await get('/announced-large', { maxBodyBytes: MiB }));
    assert.equal(error.kind, 'too_large');
    assert.match(error.message, /^fetch: the body exceeds 1 MiB \(the server announced 52428800 bytes\)$/);
  });

  it('hangs up as soon as a streamed body passes the limit', async () => {
    const error = errorOf(await get('/slow-large', { maxBodyBytes: 64 * KiB }));
    assert.equal(error.kind, 'too_large');
    assert.equal(error.message, 'fetch: the body exceeds 64 KiB');
    assert.equal(await slow.closedEarly, true, 'the server saw the socket close before it finished writing');
    assert.ok(slow.written < slow.total / 2, `the server wrote only ${slow.written} bytes`);
  });
});
