// Issue 12, "Every user mistake gets one clear line, never a stack trace": each mistake a new user makes
// ends with exactly one line on stderr, `tidings: ...`, no stack frame, and a non-zero exit. The command
// lines run one after the other in one CLI process (helpers/cli-batch-run.ts): one start of the CLI.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BatchCase, BatchResult } from './helpers/cli-batch.js';
import { runAll } from './helpers/cli-batch-run.js';

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
  let blocker: Server;
  let gone: HttpServer;
  let port = 0;
  let version = '';
  const results = new Map<string, BatchResult>();
  /** The result of the command line named `name`. */
  const run = (name: string): BatchResult => {
    const found = results.get(name);
    assert.ok(found, `no run named ${name}`);
    return found;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-mistakes-'));
    const env = {
      TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}`,
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
    };
    // A file where the folder should be fails for root too; without root, a folder without write permission.
    const blocked = join(dir, 'blocked');
    if (process.getuid?.() === 0) writeFileSync(blocked, 'a file, not a folder');
    else mkdirSync(blocked, { mode: 0o555 });
    const page = join(dir, 'page.html');
    writeFileSync(page, '<!DOCTYPE html><html><body><p>hello</p></body></html>');
    const feed = join(dir, 'feed.xml');
    writeFileSync(feed, '<rss version="2.0"><channel><title>T</title></channel></rss>');
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
    version = (await import('../package.json', { with: { type: 'json' } })).default.version;
    // a server whose every answer is 404, with a body that is no feed
    gone = createHttpServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'),
    );
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const goneAddress = gone.address();
    const gonePort = typeof goneAddress === 'object' && goneAddress !== null ? goneAddress.port : 0;
    const cases: [string, BatchCase][] = [
      ['mysql', { args: ['status', '--database', 'mysql://user:secret@x/db'] }],
      ['postgres', { args: ['status', '--database', 'postgres://user:secret@127.0.0.1:1/db'] }],
      ['blocked', { args: ['status', '--database', `sqlite:${join(blocked, 'sub', 't.db')}`] }],
      ['interval', { args: ['status'], env: { TIDINGS_POLL_INTERVAL: 'banana' } }],
      ['concurrency', { args: ['status'], env: { TIDINGS_CONCURRENCY: 'many' } }],
      ['retention', { args: ['serve', '--port', '0'], env: { TIDINGS_RETENTION_DAYS: 'soon' } }],
      ['missing', { args: ['import', join(dir, 'missing.opml')] }],
      ['import a folder', { args: ['import', dir] }],
      ['port abc', { args: ['serve', '--port', 'abc'] }],
      ['port 65536', { args: ['serve', '--port', '65536'] }],
      ['port in use', { args: ['serve', '--port', String(port)] }],
      ['--version', { args: ['--version'] }],
      ['-V', { args: ['-V'] }],
      ['parse page', { args: ['parse', page] }],
      ['parse --json page', { args: ['parse', '--json', page] }],
      ['parse --jsonl feed page', { args: ['parse', '--jsonl', feed, page] }],
      ['parse --jsonl feed', { args: ['parse', '--jsonl', feed] }],
      ['parse --json two', { args: ['parse', '--json', feed, page] }],
      ['parse --json --jsonl', { args: ['parse', '--json', '--jsonl', feed] }],
      ['parse --base-url notaurl', { args: ['parse', '--base-url', 'notaurl', feed] }],
      ['parse --base-url http:', { args: ['parse', '--base-url', 'http:', feed] }],
      ['parse --json missing', { args: ['parse', '--json', join(dir, 'missing.xml')] }],
      ['parse 404', { args: ['parse', `http://127.0.0.1:${gonePort}/feed.xml`] }],
    ];
    const answers = await runAll(cases.map(([, one]) => ({ ...one, env: { ...env, ...one.env } })));
    for (const [index, [name]] of cases.entries()) {
      const answer = answers[index];
      if (answer) results.set(name, answer);
    }
  });

  after(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    await new Promise((resolve) => gone.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('names an unsupported database URL (--database mysql://x)', () => {
    assertOneLine(
      run('mysql'),
      1,
      /unsupported database URL mysql:\/\/user:\*\*\*@x\/db; use sqlite:PATH or postgres:/,
    );
  });

  it('names an unreachable PostgreSQL server, without its password', () => {
    assertOneLine(
      run('postgres'),
      1,
      /cannot reach PostgreSQL at postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/db: .*ECONNREFUSED/,
    );
  });

  it('names a sqlite: path whose folder cannot be written', () => {
    assertOneLine(
      run('blocked'),
      1,
      /opening the SQLite database .*blocked\/sub\/t\.db failed: (EEXIST|ENOTDIR|EACCES)/,
    );
  });

  it('names a variable that cannot be read (TIDINGS_POLL_INTERVAL=banana)', () => {
    assertOneLine(run('interval'), 1, /TIDINGS_POLL_INTERVAL must be an interval such as 30s.*not "banana"/);
    assertOneLine(run('concurrency'), 1, /TIDINGS_CONCURRENCY must be a positive whole number, not "many"/);
  });

  it('names a retention setting that cannot be read before serving (TIDINGS_RETENTION_DAYS=soon)', () => {
    assertOneLine(
      run('retention'),
      1,
      /TIDINGS_RETENTION_DAYS must be a whole number of at least 0, not "soon"/,
    );
  });

  it('names a file that does not exist (import missing.opml)', () => {
    assertOneLine(run('missing'), 1, /missing\.opml: no such file or folder$/);
  });

  it('refuses a --port that is no port before opening anything (serve --port abc)', () => {
    assertOneLine(run('port abc'), 2, /--port takes a port number .*not "abc"/);
    assertOneLine(run('port 65536'), 2, /not "65536"/);
  });

  it('says a port is in use and exits, before the poller starts (serve --port <in use>)', () => {
    const inUse = run('port in use');
    assertOneLine(inUse, 1, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
    assert.doesNotMatch(inUse.stderr, /poller started/);
  });

  it('prints the version of package.json for --version and -V', () => {
    for (const flag of ['--version', '-V']) {
      assert.equal(run(flag).code, 0);
      assert.equal(run(flag).stdout, `${version}\n`);
    }
  });

  it('exits 1 for a document that is no feed, with the same stdout (parse, --json, --jsonl)', () => {
    const text = run('parse page');
    assertOneLine(text, 1, /parse: .*page\.html is not a feed/);
    assert.match(text.stdout, /format: {3}unknown/);
    const json = run('parse --json page');
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stdout).version, '');
    const jsonl = run('parse --jsonl feed page');
    assert.equal(jsonl.code, 1);
    assert.deepEqual(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).version),
      ['rss20', ''],
    );
    assert.equal(run('parse --jsonl feed').code, 0);
  });

  it('names the folder given to import as a file', () => {
    assertOneLine(run('import a folder'), 1, /tidings-mistakes-\w+: is a folder, not a file/);
  });

  it("prints one JSON object for --json, so several documents are --jsonl's", () => {
    assertOneLine(run('parse --json two'), 2, /--json prints one document's object; .* use --jsonl/);
    assert.equal(run('parse --json two').stdout, '');
    assertOneLine(run('parse --json --jsonl'), 2, /--json or --jsonl, not both/);
    assertOneLine(run('parse --base-url notaurl'), 2, /--base-url "notaurl" is not an absolute URL/);
    assertOneLine(run('parse --base-url http:'), 2, /--base-url "http:" is not an absolute URL/);
    assert.equal(run('parse --base-url notaurl').stdout, '');
    // a document never read has no encoding: the key is left out, as the contract leaves out empty keys
    const missing = run('parse --json missing');
    assert.equal(missing.code, 1);
    const object = JSON.parse(missing.stdout) as Record<string, unknown>;
    assert.equal('encoding' in object, false);
    assert.equal(object['bozo'], true);
  });

  it('says the HTTP status of a URL that answers an error, as add does', () => {
    assertOneLine(
      run('parse 404'),
      1,
      /cannot read http:\/\/127\.0\.0\.1:\d+\/feed\.xml: the server answered 404/,
    );
  });
});
