// `tidings serve --processes N`: several processes answer on one port. Each new connection goes to
// the next process (node:cluster's round robin), so that requests made on connections of their own are
// spread over all of them: what one process does must reach the others (Microsub events), and
// /metrics must count every process's requests, whichever process a scrape reaches. On SQLite and on
// PostgreSQL (whose processes relay events through LISTEN/NOTIFY, not through the primary).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hashToken, newToken } from '../src/store/index.js';
import { tidings } from './helpers/cli.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { CLI_ARGS } from './helpers/node-args.js';
import { rss } from './helpers/poll-harness.js';
import { addFollowedFeed, type StoreBackend, storeBackends } from './helpers/temp-store.js';

const STREAMS = 4;
const PASSWORD = 'a password for the processes test';

/** One request on a connection of its own (no keep-alive: the next request reaches the next process). */
function once(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** An event stream on a connection of its own; `events` fills as events arrive. */
function openStream(port: number, token: string): Promise<{ events: string[]; close(): void }> {
  return new Promise((resolve, reject) => {
    const events: string[] = [];
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/microsub?action=events',
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        agent: false,
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          for (const match of chunk.matchAll(/^event: (\S+)/gm)) events.push(match[1] as string);
        });
        res.on('error', () => {});
        resolve({ events, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return children;
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The sum of a metric's samples whose labels include `labels`, from a Prometheus text exposition. */
function sampleSum(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (match && (match[1] ?? '').includes(labels)) sum += Number(match[2]);
  }
  return sum;
}

function processesSuite(backend: StoreBackend) {
  let feeds: TestServer;
  let url: string;
  let token: string;
  let child: ChildProcess | undefined;
  let stderr = '';
  let port = 0;

  before(async () => {
    feeds = await startServer({
      '/feed': (_req, res) =>
        send(res, 200, rss([{ guid: 'one', title: 'One' }]), { 'content-type': 'application/rss+xml' }),
    });
    const store = await backend.open();
    url = backend.urlOf(store);
    await addFollowedFeed(store, `${feeds.url}/feed`, new Date().toISOString());
    token = newToken();
    await store.accounts.createToken(
      { tokenHash: hashToken(token), scope: 'read channels' },
      new Date().toISOString(),
    );
    const password = await tidings(['password'], { TIDINGS_DATABASE_URL: url }, `${PASSWORD}\n`);
    assert.equal(password.code, 0, password.stderr);
    child = spawn(process.execPath, [...CLI_ARGS, 'serve', '--port', '0', '--processes', '2'], {
      env: {
        ...process.env,
        TIDINGS_DATABASE_URL: url,
        TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
        TIDINGS_METRICS: 'true',
      },
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await until(
      () => /tidings: serving on http:\/\/127\.0\.0\.1:(\d+)\//.test(stderr),
      'serve to listen',
      30_000,
    );
    port = Number(/tidings: serving on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr)?.[1]);
  });

  after(async () => {
    child?.kill('SIGKILL');
    await feeds.close();
    await backend.cleanup();
  });

  it('says once that it serves, with how many processes', () => {
    assert.equal(stderr.match(/tidings: serving on/g)?.length, 1, stderr);
    assert.match(stderr, /; 2 processes\)/);
  });

  it("tells the event streams of every process of a change made through another's", async () => {
    const auth = { authorization: `Bearer ${token}` };
    // the lead polls the feed as serve starts: one entry in the channel that follows it
    let items: { _id: string }[] = [];
    let uid = '';
    async function refresh() {
      const channels = JSON.parse((await once(port, '/microsub?action=channels', { headers: auth })).body);
      uid = channels.channels.find((c: { uid: string }) => c.uid !== 'notifications').uid;
      items = JSON.parse(
        (await once(port, `/microsub?action=timeline&channel=${uid}`, { headers: auth })).body,
      ).items;
    }
    for (let i = 0; i < 200 && items.length === 0; i++) {
      await refresh();
      if (items.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(port, token)));
    try {
      const marked = await once(port, '/microsub', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: `action=timeline&method=mark_read&channel=${uid}&entry=${items[0]?._id}`,
      });
      assert.equal(marked.status, 200, marked.body);
      await until(
        () => streams.every((stream) => stream.events.includes('change-channel')),
        'every stream to hear that the unread count changed',
      );
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it("counts every process's requests in /metrics, and the feeds once", async () => {
    const before = sampleSum(
      (await once(port, '/metrics')).body,
      'tidings_http_requests_total',
      'route="/healthz"',
    );
    for (let i = 0; i < 6; i++) assert.equal((await once(port, '/healthz')).status, 200);
    const text = (await once(port, '/metrics')).body;
    assert.equal(
      sampleSum(text, 'tidings_http_requests_total', 'route="/healthz"'),
      before + 6,
      text.slice(0, 3000),
    );
    assert.equal(
      sampleSum(text, 'tidings_feeds'),
      1,
      text
        .split('\n')
        .filter((l) => l.startsWith('tidings_feeds'))
        .join('\n'),
    );
  });

  it('signs in through one process and reads through every other, forms and sessions alike', async () => {
    // the login page's CSRF token, the session cookie and feed icons are signed with secrets created on
    // first use: every process must use the same ones
    const page = await once(port, '/login');
    assert.equal(page.status, 200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const cookie = (page.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const signedIn = await once(port, '/login', {
      method: 'POST',
      headers: {
        cookie,
        origin: `http://127.0.0.1:${port}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: csrf, password: PASSWORD }).toString(),
    });
    assert.equal(signedIn.status, 303, signedIn.body);
    assert.doesNotMatch(String(signedIn.headers.location), /login/);
    const session = (signedIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    for (let i = 0; i < 4; i++) {
      const feeds = await once(port, '/feeds', { headers: { cookie: session } });
      assert.equal(feeds.status, 200, `request ${i}: ${feeds.status}`);
    }
  });

  it('starts another process when one ends, and keeps answering on every connection', async () => {
    const pid = child?.pid as number;
    const before = childrenOf(pid);
    assert.equal(before.length, 2, 'two processes under the primary');
    process.kill(before[1] as number, 'SIGKILL');
    await until(() => {
      const now = childrenOf(pid);
      return now.length === 2 && !now.includes(before[1] as number);
    }, 'a process in place of the one killed');
    await until(() => /a process ended; starting another/.test(stderr), 'the primary to say so');
    // the new process listens a moment after it starts: every connection is answered meanwhile
    for (let i = 0; i < 6; i++) assert.equal((await once(port, '/healthz')).status, 200);
  });

  it('polls a feed from one process, and stops every process on SIGTERM', async () => {
    await until(() => feeds.requests.length > 0, 'the feed to be fetched');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(feeds.requests.length, 1);
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    assert.equal(await exited, 0);
    child = undefined;
    await assert.rejects(once(port, '/healthz'), /ECONNREFUSED/);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined)
    it(`tidings serve --processes (${backend.name})`, { skip: backend.skip }, () => {});
  else describe(`tidings serve --processes (${backend.name})`, () => processesSuite(backend));
}

describe('tidings serve --processes, refused', () => {
  it('ends as a lone serve does when the port is taken, and refuses a bad count in one line', async () => {
    const taker = await startServer({});
    const dir = mkdtempSync(join(tmpdir(), 'tidings-processes-'));
    try {
      const env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}` };
      const taken = await tidings(['serve', '--port', String(taker.port), '--processes', '2'], env);
      const alone = await tidings(['serve', '--port', String(taker.port)], env);
      assert.equal(taken.code, alone.code);
      assert.notEqual(taken.code, 0);
      assert.match(taken.stderr, /already in use/);
      const bad = await tidings(['serve', '--processes', 'many'], env);
      assert.equal(bad.code, 2);
      assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
      assert.match(
        bad.stderr,
        /--processes \(or TIDINGS_SERVE_PROCESSES\) takes a number from 1 to 64, or auto/,
      );
      const badEnv = await tidings(['serve'], { ...env, TIDINGS_SERVE_PROCESSES: '0' });
      assert.equal(badEnv.code, 2);
      assert.match(
        badEnv.stderr,
        /TIDINGS_SERVE_PROCESSES\) takes a number from 1 to 64, or auto \(one per core\), not "0"/,
      );
    } finally {
      await taker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
