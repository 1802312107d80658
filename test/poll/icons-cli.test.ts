// Icon lookups never hold a command (issue 22): a site whose icon links never answer made `add` take
// 40 s, and `serve` 298 s to exit after SIGTERM. Real CLI processes against a local site.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { tidings } from '../helpers/cli.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { CLI_ARGS } from '../helpers/node-args.js';
import { rss } from '../helpers/poll-harness.js';

/**
 * Under one icon request's own timeout (10 s): a command that waited for the icon cannot be this quick.
 * `add` is timed from the feed's one fetch, so the parse and the store's writes (a few seconds on a
 * loaded machine) count too.
 */
const QUICK_MS = 7000;

describe('icon lookups and the commands (local site whose icons never answer)', () => {
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;
  /** When the feed was last asked for (ms since the epoch). */
  let feedAskedAt = 0;
  const iconAsked = () => server.requests.some((r) => r.path.startsWith('/site/i'));

  before(async () => {
    server = await startServer({
      '/feed.xml': (_q, res) => {
        feedAskedAt = Date.now();
        send(
          res,
          200,
          rss([{ guid: '1', title: 'One' }]).replace('https://example.com/', `${server.url}/site/`),
          { 'content-type': 'application/rss+xml' },
        );
      },
      '/site/': (_q, res) => {
        const links = [0, 1, 2, 3].map((i) => `<link rel="icon" href="/site/i${i}.png">`).join('');
        send(res, 200, `<html><head>${links}</head></html>`, { 'content-type': 'text/html' });
      },
      // never answered: the server closes them at the end
      '/site/i0.png': () => undefined,
      '/site/i1.png': () => undefined,
      '/site/i2.png': () => undefined,
      '/site/i3.png': () => undefined,
    });
    dir = mkdtempSync(join(tmpdir(), 'tidings-icons-'));
    env = {
      TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}`,
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
      TIDINGS_FEED_ICONS: 'true',
    };
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('add ends as soon as the feed is stored', async () => {
    const added = await tidings(['add', `${server.url}/feed.xml`], env);
    const addMs = Date.now() - feedAskedAt;
    assert.equal(added.code, 0, added.stderr);
    assert.ok(addMs < QUICK_MS, `add ended ${addMs} ms after the feed was fetched`);
  });

  it('serve exits at once on SIGTERM while an icon lookup waits', async () => {
    // the feed is due again, so that serve's poller polls it and looks for its icon
    const store = await openStore(env['TIDINGS_DATABASE_URL'] as string);
    for (const feed of await store.feeds.list())
      await store.feeds.update(feed.id, { nextCheckAt: new Date(0).toISOString() });
    await store.close();
    const child = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0'], {
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const before = server.requests.length;
    const newIconAsked = () => server.requests.slice(before).some((r) => r.path.startsWith('/site/i'));
    for (let i = 0; i < 1500 && !newIconAsked(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(newIconAsked(), `serve looked for the icon\n${stderr.slice(-2000)}`);
    const signalled = Date.now();
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr.slice(-2000));
    const exitMs = Date.now() - signalled;
    assert.ok(exitMs < QUICK_MS, `serve exited ${exitMs} ms after SIGTERM`);
    assert.ok(iconAsked());
  });
});
