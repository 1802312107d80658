// `tidings healthcheck` (a container's HEALTHCHECK) against a running `tidings serve`, a dead port and
// servers that answer wrongly; and serve's /metrics over a real socket, its polls counted (issue 25).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkHealth } from '../src/cli/healthcheck.js';
import { openStore } from '../src/store/index.js';
import { tidings } from './helpers/cli.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { CLI_ARGS } from './helpers/node-args.js';
import { rss } from './helpers/poll-harness.js';
import { parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';
import { addFollowedFeed } from './helpers/temp-store.js';

describe('tidings healthcheck', () => {
  let feeds: TestServer;
  let dir: string;
  let serve: ChildProcess;
  let stderr = '';
  let base = '';

  before(async () => {
    feeds = await startServer({
      '/feed.xml': (_req, res) =>
        send(
          res,
          200,
          rss([
            { guid: 'one', title: 'One' },
            { guid: 'two', title: 'Two' },
          ]),
          {
            'content-type': 'application/rss+xml',
          },
        ),
    });
    dir = mkdtempSync(join(tmpdir(), 'tidings-healthcheck-'));
    const url = `sqlite:${join(dir, 't.db')}`;
    const store = await openStore(url);
    await store.migrate();
    await addFollowedFeed(store, `${feeds.url}/feed.xml`, new Date().toISOString());
    await store.close();
    serve = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0'], {
      env: {
        ...process.env,
        TIDINGS_DATABASE_URL: url,
        TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
        TIDINGS_FEED_ICONS: 'false',
        TIDINGS_METRICS: 'true',
      },
    });
    serve.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // listening, and the feed polled once
    for (let i = 0; i < 3000 && !(base && stderr.includes('"msg":"refreshed"')); i++) {
      base = /serving on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr)?.[1] ?? '';
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(base, stderr);
  });

  after(async () => {
    if (serve.exitCode === null) {
      const exited = new Promise((resolve) => serve.once('exit', resolve));
      serve.kill('SIGTERM');
      await exited;
    }
    await feeds.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 with one line when /healthz says ok', async () => {
    const run = await tidings(['healthcheck', base], {});
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `healthcheck: ${base}/healthz: ok (database ok)\n`);
    assert.equal(run.stderr, '');
  });

  it("serves its polls' counts at /metrics to a loopback client (the real socket's address)", async () => {
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 200);
    const families = parsePrometheusText(await res.text());
    assert.equal(sampleValue(families, 'tidings_polls_total', { outcome: 'ok' }), 1);
    assert.equal(sampleValue(families, 'tidings_entries_stored_total'), 2);
    assert.equal(sampleValue(families, 'tidings_fetch_duration_seconds_count'), 1);
    assert.equal(sampleValue(families, 'tidings_feeds', { health: 'ok' }), 1);
    assert.ok(sampleValue(families, 'process_resident_memory_bytes') > 0);
  });

  it('exits 1 with one line when nothing listens there', async () => {
    const dead = await startServer({});
    const url = dead.url;
    await dead.close();
    const run = await tidings(['healthcheck', url], {});
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      `tidings: healthcheck: ${url}/healthz: nothing listens there (connection refused)\n`,
    );
  });

  it('exits 1 saying what was answered when /healthz is not ok, and looks under the base URL path', async () => {
    const other = await startServer({
      '/down/healthz': (_req, res) =>
        send(res, 503, JSON.stringify({ status: 'error', database: 'unavailable' }), {
          'content-type': 'application/json',
        }),
      '/healthz': (_req, res) => send(res, 200, '<html>a web page</html>', { 'content-type': 'text/html' }),
    });
    try {
      const down = await tidings(['healthcheck', `${other.url}/down`], {});
      assert.equal(down.code, 1);
      assert.equal(
        down.stderr,
        `tidings: healthcheck: ${other.url}/down/healthz answered 503: status error, database unavailable\n`,
      );
      const page = await tidings(['healthcheck', other.url], {});
      assert.equal(page.code, 1);
      assert.match(page.stderr, /^tidings: healthcheck: .*\/healthz answered 200: not the JSON of \/healthz/);
      assert.equal(page.stderr.split('\n').length, 2);
    } finally {
      await other.close();
    }
  });

  it('gives up on a server that never answers after its timeout', async () => {
    const silent = await startServer({ '/healthz': () => {} });
    try {
      const started = Date.now();
      await assert.rejects(checkHealth(silent.url, 100), {
        name: 'UserError',
        message: `healthcheck: ${silent.url}/healthz: no answer within 0.1 s`,
      });
      assert.ok(Date.now() - started < 2_000);
    } finally {
      await silent.close();
    }
  });

  it('exits 1, never 2 (which Docker reserves), for a base URL it cannot use', async () => {
    for (const bad of ['not a url', 'ftp://127.0.0.1/']) {
      const run = await tidings(['healthcheck', bad], {});
      assert.equal(run.code, 1, bad);
      assert.match(run.stderr, /^tidings: healthcheck: .*(not a URL|not an http)/);
    }
  });
});
