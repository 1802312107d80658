// `tidings poll --once` as a user meets it: --feed mistakes in one line, a feed not due explained,
// progress with its total as plain lines in a log, and SIGTERM giving the claimed feeds back.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../src/store/index.js';
import { tidings } from './helpers/cli.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { CLI_ARGS } from './helpers/node-args.js';
import { rss } from './helpers/poll-harness.js';
import { addFollowedFeed } from './helpers/temp-store.js';

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('tidings poll --once', () => {
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    server = await startServer({
      '/feed': (req, res) =>
        send(res, 200, rss([{ guid: req.url ?? '', title: 'x' }]), { 'content-type': 'application/rss+xml' }),
      '/slow': (_req, res) => {
        const timer = setTimeout(() => send(res, 200, rss([{ guid: 's', title: 'slow' }])), 20_000);
        res.on('close', () => clearTimeout(timer));
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'tidings-cli-poll-'));
    env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}`, TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true' };
    const store = await openStore(env['TIDINGS_DATABASE_URL'] as string);
    await store.migrate();
    for (let i = 0; i < 25; i++)
      await addFollowedFeed(store, `${server.url}/feed?n=${i}`, new Date().toISOString());
    await store.close();
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses --feed abc in one line (exit 2) and names a feed that does not exist (exit 1)', async () => {
    const abc = await tidings(['poll', '--once', '--feed', 'abc'], env);
    assert.equal(abc.code, 2);
    assert.deepEqual(stderrLines(abc.stderr), [
      'tidings: poll: --feed takes feed ids (numbers, as tidings status shows them), not "abc"',
    ]);
    const missing = await tidings(['poll', '--once', '--feed', '9999'], env);
    assert.equal(missing.code, 1);
    assert.deepEqual(stderrLines(missing.stderr), [
      'tidings: poll: no feed 9999 (tidings status lists the feeds)',
    ]);
    assert.equal(missing.stdout, '');
  });

  it('prints progress with its total as plain lines when stderr is a log, and the summary in words', async () => {
    const run = await tidings(['poll', '--once'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /\r/);
    const lines = stderrLines(run.stderr);
    assert.ok(lines.length >= 2 && lines.length <= 11, `a line per tenth at most:\n${run.stderr}`);
    for (const line of lines) assert.match(line, /^poll: \d+ of 25 feeds$/);
    assert.equal(lines.at(-1), 'poll: 25 of 25 feeds');
    assert.match(run.stdout, /^polled 25 feeds in \d+\.\d s: 25 new entries, 0 updated\n/);
  });

  it('says a feed is not due and that --force polls it anyway, then polls it with --force', async () => {
    const notDue = await tidings(['poll', '--once', '--feed', '3'], env);
    assert.equal(notDue.code, 1);
    assert.match(notDue.stdout, /^polled 0 feeds/);
    assert.deepEqual(stderrLines(notDue.stderr).length, 1, notDue.stderr);
    assert.match(
      notDue.stderr,
      /^tidings: poll: feed 3 is not due \(next check at \d{4}-\S+Z\); --force polls it anyway\n$/,
    );
    const forced = await tidings(['poll', '--once', '--force', '--feed', '3'], env);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^polled 1 feed in \d+\.\d s: 0 new entries, 0 updated\n/);
  });

  it('gives its claimed feeds back on SIGTERM and exits 143', async () => {
    const store = await openStore(env['TIDINGS_DATABASE_URL'] as string);
    const slow = await addFollowedFeed(store, `${server.url}/slow`, new Date().toISOString());
    const requests = server.requests.length;
    const child = spawn(process.execPath, [...CLI_ARGS, 'poll', '--once', '--feed', String(slow.id)], {
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    for (let i = 0; i < 1000 && !server.requests.slice(requests).some((r) => r.path === '/slow'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGTERM');
    assert.equal(await exited, 143);
    assert.deepEqual(stderrLines(stderr), [
      'tidings: poll: stopped by SIGTERM; the feeds not polled were given back',
    ]);
    const claimed = await store.polling.claimDue({
      now: new Date().toISOString(),
      limit: 10,
      workerId: 'another-worker',
      leaseMs: 1_000,
      feedIds: [slow.id],
    });
    assert.deepEqual(
      claimed.map((feed) => feed.id),
      [slow.id],
      'the slow feed is free at once',
    );
    await store.close();
  });
});
