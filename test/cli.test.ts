// The command-line interfaces other tools rely on: parse, add, import, poll --once, status --json, export.
// The command lines run one after the other in one CLI process (helpers/cli-batch-run.ts, through
// runCommand as src/cli.ts does), each test reading its own.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BatchResult } from './helpers/cli-batch.js';
import { runAll } from './helpers/cli-batch-run.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { rss } from './helpers/poll-harness.js';

describe('tidings CLI', () => {
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;
  const results = new Map<string, BatchResult>();
  /** The result of the command line named `name`. */
  const tidings = async (name: string): Promise<BatchResult> => {
    const found = results.get(name);
    assert.ok(found, `no run named ${name}`);
    return found;
  };

  before(async () => {
    server = await startServer({
      '/blog': (_req, res) =>
        send(
          res,
          200,
          '<!DOCTYPE html><html><head><link rel="alternate" type="application/rss+xml" href="/blog/feed"></head><body></body></html>',
          { 'content-type': 'text/html' },
        ),
      '/blog/feed': (_req, res) =>
        send(res, 200, rss([{ guid: '1', title: 'Hello' }]), { 'content-type': 'application/rss+xml' }),
      '/other.xml': (_req, res) =>
        send(res, 200, rss([{ guid: 'o', title: 'Other' }]), { 'content-type': 'application/rss+xml' }),
      '/missing.xml': (_req, res) => send(res, 404, 'no'),
      '/about': (_req, res) =>
        send(res, 200, '<!DOCTYPE html><html><head><title>About</title></head><body>Hi</body></html>', {
          'content-type': 'text/html',
        }),
    });
    dir = mkdtempSync(join(tmpdir(), 'tidings-cli-'));
    env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}`, TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true' };
    const feed = join(dir, 'feed.xml');
    writeFileSync(feed, rss([{ guid: 'g', title: 'T', pubDate: 'not a date' }]));
    const pages = join(dir, 'pages.opml');
    writeFileSync(
      pages,
      `<opml version="2.0"><body>\n<outline text="Blog" xmlUrl="${server.url}/blog"/>\n<outline text="About" xmlUrl="${server.url}/about"/>\n</body></opml>`,
    );
    const subs = join(dir, 'subs.opml');
    writeFileSync(
      subs,
      `<opml version="2.0"><body><outline text="News"><outline text="Other" xmlUrl="${server.url}/other.xml"/><outline text="Gone" xmlUrl="${server.url}/missing.xml"/></outline></body></opml>`,
    );
    const pagesDb = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'pages.db')}` };
    const cases: [string, string[], Record<string, string>?][] = [
      ['parse --json', ['parse', '--json', feed]],
      ['parse --jsonl', ['parse', '--jsonl', feed, feed]],
      ['add', ['add', `${server.url}/blog`, '--channel', 'Blogs']],
      ['import pages', ['import', pages], pagesDb],
      ['export pages', ['export'], pagesDb],
      ['import --no-fetch', ['import', '--no-fetch', subs]],
      ['poll --once', ['poll', '--once']],
      ['status --json', ['status', '--json']],
      ['status 1', ['status', '1']],
      ['status missing', ['status', `${server.url}/missing.xml`]],
      ['export', ['export']],
      // a feed behind Basic auth: its password is not printed back
      [
        'add private',
        ['add', `${server.url.replace('//', '//ann:Pa55w0rd@')}/other.xml`, '--channel', 'Private'],
      ],
      ['status private', ['status']],
    ];
    const answers = await runAll(cases.map(([, args, extra]) => ({ args, env: { ...env, ...extra } })));
    for (const [index, [name]] of cases.entries()) {
      const answer = answers[index];
      if (answer) results.set(name, answer);
    }
  });

  it('prints no password of a feed URL: add and status show user:***', async () => {
    const added = await tidings('add private');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /added feed \d+ http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+\/other\.xml/);
    const status = await tidings('status private');
    assert.doesNotMatch(`${added.stdout}${added.stderr}${status.stdout}${status.stderr}`, /Pa55w0rd/);
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('parse --json prints the contract, and --jsonl one line per file with "file"', async () => {
    const file = join(dir, 'feed.xml');
    const one = JSON.parse((await tidings('parse --json')).stdout);
    assert.equal(one.version, 'rss20');
    assert.equal(one.entries[0].publishedRaw, 'not a date');
    assert.equal(one.diagnostics[0].code, 'date.unparseable');
    const lines = (await tidings('parse --jsonl')).stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.equal(JSON.parse(lines[1] as string).file, file);
  });

  it('add resolves a web page to its feed, subscribes and fetches it at once', async () => {
    const run = await tidings('add');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /web page; following its feed .*\/blog\/feed/);
    assert.match(run.stdout, /added feed 1 .*\/blog\/feed to Blogs: ok, 1 entry/);
  });

  it('imports OPML fetching at once: a page is resolved to its feed, a page without one is reported by line', async () => {
    const run = await tidings('import pages');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /line 3: .*\/about: not a feed: a web page that links to no feed/);
    // issue 22: this said "imported 1 feed (2 new), 1 skipped of 2"
    assert.equal(
      run.stdout,
      'followed 1 of 2 feeds (1 new); not followed: 0 already followed, 1 failed; fetched\n',
    );
    const exported = await tidings('export pages');
    assert.match(exported.stdout, /xmlUrl="[^"]*\/blog\/feed"/);
    assert.doesNotMatch(exported.stdout, /\/about/);
  });

  it('imports OPML, polls once (exit 0 although a feed fails) and reports every feed in status --json', async () => {
    assert.match(
      (await tidings('import --no-fetch')).stdout,
      /^followed 2 of 2 feeds \(2 new\); not followed: 0 already followed, 0 failed; run tidings poll --once/,
    );
    const poll = await tidings('poll --once');
    assert.equal(poll.code, 0, poll.stderr);
    assert.match(poll.stdout, /polled 2 feeds/);
    assert.match(poll.stdout, /fetch_error\s+1/);
    const status = JSON.parse((await tidings('status --json')).stdout);
    const keys = [
      'id',
      'url',
      'originalUrl',
      'title',
      'status',
      'httpStatus',
      'lastCheckedAt',
      'lastSuccessAt',
      'nextCheckAt',
      'errorCount',
      'message',
      'diagnostics',
      'push',
    ];
    for (const feed of status.feeds) {
      for (const key of keys) assert.ok(key in feed, `status --json has ${key}`);
      // WebSub (issue 26): no hub, no subscription
      assert.deepEqual(feed.push, { state: 'none', hub: null, topic: null, expiresAt: null });
    }
    const missing = status.feeds.find((f: { url: string }) => f.url.endsWith('/missing.xml'));
    assert.deepEqual([missing.status, missing.httpStatus, missing.errorCount], ['fetch_error', 404, 1]);
    assert.match(missing.message, /404/);
  });

  it('status FEED shows the history; export writes OPML with channels as outlines', async () => {
    const one = await tidings('status 1');
    assert.match(one.stdout, /history:\n\s+\S+\s+ok/);
    assert.match(one.stdout, /\n {2}push: {9}none: push is off \(TIDINGS_BASE_URL is not set\)\n/);
    assert.match(one.stdout, /\n {2}diagnostics of the last poll:\n/);
    // a poll that read no document says so: the diagnostics kept are of the one read before (none here)
    const failed = await tidings('status missing');
    assert.match(
      failed.stdout,
      /\n {2}diagnostics: the last poll read no document; the one read before it had:\n {4}none\n/,
    );
    const opml = (await tidings('export')).stdout;
    assert.match(opml, /<outline text="Blogs" title="Blogs">/);
    assert.match(opml, /<outline text="News" title="News">[\s\S]*other\.xml/);
  });
});
