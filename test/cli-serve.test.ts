// `tidings serve` polling many feeds at once: no MaxListenersExceededWarning (each fetch used to add a
// listener to the one stop signal, and each idle wait left one behind), and SIGTERM ends it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../src/store/index.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { CLI_ARGS } from './helpers/node-args.js';
import { rss } from './helpers/poll-harness.js';
import { addFollowedFeed } from './helpers/temp-store.js';

const FEEDS = 40;

describe('tidings serve', () => {
  let server: TestServer;
  let dir: string;
  let url: string;

  before(async () => {
    server = await startServer({
      // slow enough that every fetch of the run is under way at once
      '/feed': (req, res) => {
        setTimeout(
          () =>
            send(res, 200, rss([{ guid: req.url ?? '', title: 'x' }]), {
              'content-type': 'application/rss+xml',
            }),
          300,
        );
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'tidings-serve-'));
    url = `sqlite:${join(dir, 't.db')}`;
    const store = await openStore(url);
    await store.migrate();
    for (let i = 0; i < FEEDS; i++)
      await addFollowedFeed(store, `${server.url}/feed?n=${i}`, new Date().toISOString());
    await store.close();
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('polls 40 feeds 32 at a time without a MaxListenersExceededWarning, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0'], {
      env: {
        ...process.env,
        TIDINGS_DATABASE_URL: url,
        TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
        TIDINGS_PER_HOST_CONCURRENCY: '32',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 3000 && (stderr.match(/"msg":"refreshed"/g) ?? []).length < FEEDS; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal((stderr.match(/"msg":"refreshed"/g) ?? []).length, FEEDS, stderr.slice(-2000));
    assert.ok(server.requests.length >= 32);
    assert.doesNotMatch(stderr, /MaxListenersExceededWarning|memory leak/);
    assert.match(stderr, /tidings: serving on http:\/\/127\.0\.0\.1:\d+\//);
  });
});
