// Issue 12, "Every user mistake gets one clear line, never a stack trace": each mistake a new user makes
// ends with exactly one line on stderr, `tidings: ...`, no stack frame, and a non-zero exit.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tidings } from './helpers/cli.js';

/** Asserts the run failed with `exitCode` and one line on stderr matching `pattern`, without a stack. */
function assertOneLine(run: { code: number; stderr: string }, exitCode: number, pattern: RegExp): void {
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, /^\s+at /m);
  assert.match(lines[0] as string, /^tidings: /);
  assert.match(lines[0] as string, pattern);
  assert.equal(run.code, exitCode, run.stderr);
}

describe('tidings CLI: user mistakes', () => {
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-mistakes-'));
    env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}`, TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true' };
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names an unsupported database URL (--database mysql://x)', async () => {
    const run = await tidings(['status', '--database', 'mysql://user:secret@x/db'], env);
    assertOneLine(
      run,
      1,
      /unsupported database URL mysql:\/\/user:\*\*\*@x\/db; use sqlite:PATH or postgres:/,
    );
  });

  it('names an unreachable PostgreSQL server, without its password', async () => {
    const run = await tidings(['status', '--database', 'postgres://user:secret@127.0.0.1:1/db'], env);
    assertOneLine(
      run,
      1,
      /cannot reach PostgreSQL at postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/,
    );
  });

  it('names a sqlite: path whose folder cannot be written', async () => {
    // A file where the folder should be fails for root too; without root, a folder without write permission.
    const blocked = join(dir, 'blocked');
    if (process.getuid?.() === 0) writeFileSync(blocked, 'a file, not a folder');
    else mkdirSync(blocked, { mode: 0o555 });
    const run = await tidings(['status', '--database', `sqlite:${join(blocked, 'sub', 't.db')}`], env);
    assertOneLine(
      run,
      1,
      /opening the SQLite database .*blocked\/sub\/t\.db failed: (EEXIST|ENOTDIR|EACCES)/,
    );
  });

  it('names a variable that cannot be read (TIDINGS_POLL_INTERVAL=banana)', async () => {
    const run = await tidings(['status'], { ...env, TIDINGS_POLL_INTERVAL: 'banana' });
    assertOneLine(run, 1, /TIDINGS_POLL_INTERVAL must be an interval such as 30s.*not "banana"/);
    const workers = await tidings(['status'], { ...env, TIDINGS_CONCURRENCY: 'many' });
    assertOneLine(workers, 1, /TIDINGS_CONCURRENCY must be a positive whole number, not "many"/);
  });

  it('names a retention setting that cannot be read before serving (TIDINGS_RETENTION_DAYS=soon)', async () => {
    const run = await tidings(['serve', '--port', '0'], { ...env, TIDINGS_RETENTION_DAYS: 'soon' });
    assertOneLine(run, 1, /TIDINGS_RETENTION_DAYS must be a whole number of at least 0, not "soon"/);
  });

  it('names a file that does not exist (import missing.opml)', async () => {
    const run = await tidings(['import', join(dir, 'missing.opml')], env);
    assertOneLine(run, 1, /missing\.opml: no such file or folder$/);
  });

  it('refuses a --port that is no port before opening anything (serve --port abc)', async () => {
    assertOneLine(
      await tidings(['serve', '--port', 'abc'], env),
      2,
      /--port takes a port number .*not "abc"/,
    );
    assertOneLine(await tidings(['serve', '--port', '65536'], env), 2, /not "65536"/);
  });

  it('says a port is in use and exits, before the poller starts (serve --port <in use>)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const run = await tidings(['serve', '--port', String(port)], env);
      assertOneLine(run, 1, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
      assert.doesNotMatch(run.stderr, /poller started/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('prints the version of package.json for --version and -V', async () => {
    const { version } = (await import('../package.json', { with: { type: 'json' } })).default;
    for (const flag of ['--version', '-V']) {
      const run = await tidings([flag], env);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, `${version}\n`);
    }
  });

  it('exits 1 for a document that is no feed, with the same stdout (parse, --json, --jsonl)', async () => {
    const page = join(dir, 'page.html');
    writeFileSync(page, '<!DOCTYPE html><html><body><p>hello</p></body></html>');
    const feed = join(dir, 'feed.xml');
    writeFileSync(feed, '<rss version="2.0"><channel><title>T</title></channel></rss>');
    const text = await tidings(['parse', page], env);
    assertOneLine(text, 1, /parse: .*page\.html is not a feed/);
    assert.match(text.stdout, /format: {3}unknown/);
    const json = await tidings(['parse', '--json', page], env);
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stdout).version, '');
    const jsonl = await tidings(['parse', '--jsonl', feed, page], env);
    assert.equal(jsonl.code, 1);
    assert.deepEqual(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).version),
      ['rss20', ''],
    );
    assert.equal((await tidings(['parse', '--jsonl', feed], env)).code, 0);
  });
});
