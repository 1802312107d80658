#!/usr/bin/env node
// npm run bench:serve: the reading side at scale (issue 14). Fills a database the way users fill it,
// through `tidings import` (an OPML of generated feeds served on 127.0.0.1) and `tidings poll --once`,
// then runs `tidings serve` and measures the Microsub reads and the web reader's pages at 1 and 32
// clients, beside a hello-world on the same framework (Hono on @hono/node-server) in the same run.
//
//   node scripts/bench-serve.mjs [--size 10000] [--per-feed 500] [--channels 20] [--seconds 3] [--db PATH]
//                                [--processes auto|N]
//                                [--users N [--follows 200]] [--only PATTERN]
//
// --size is the number of entries (feeds = size / per-feed). With --users (issue 24), N users each follow
// --follows of the feeds (in --channels channels of their own), overlapping so that every feed has
// followers; the pages are measured as the first user, while the database holds everyone's state
// (`--users 100 --size 1000000`: 100 users x 200 of 2,000 feeds, each feed followed by 10). The database goes under the system's temp
// folder (or --db, to reuse a filled one: the fill is skipped when the file exists).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processTreeCpu } from './process-cpu.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli.js');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const SIZE = Number(option('size', '10000'));
const PER_FEED = Number(option('per-feed', '500'));
const FEEDS = Math.max(1, Math.ceil(SIZE / PER_FEED));
const CHANNELS = Math.min(Number(option('channels', '20')), FEEDS);
const SECONDS = Number(option('seconds', '3'));
const USERS = Number(option('users', '0'));
const FOLLOWS = Math.min(Number(option('follows', '200')), FEEDS);
/** The user the pages are measured as: the first of --users, else the one user. */
const MEASURED = USERS > 0 ? 'u0' : undefined;
/**
 * `tidings serve --processes`: as many processes as the machine has cores unless told (`--processes 1`
 * measures one process); the hello-world runs as as many processes, so that both are measured alike.
 */
const PROCESSES_OPTION = option('processes', 'auto');
const PROCESSES =
  PROCESSES_OPTION === 'auto' ? Math.min(availableParallelism(), 64) : Math.max(1, Number(PROCESSES_OPTION));
const WARM_UP_SECONDS = Math.min(1, SECONDS);
const PASSWORD = 'bench password, not a secret';
const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-serve-'));
const dbPath = option('db', join(dir, 'bench.db'));
const env = {
  ...process.env,
  TIDINGS_DATABASE_URL: `sqlite:${dbPath}`,
  TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
  TIDINGS_LOG_LEVEL: 'warn',
  TIDINGS_RETENTION_DAYS: '0',
  HELLO_PROCESSES: String(PROCESSES),
};

// ---- the generated feeds -------------------------------------------------------------------------

const WORDS = [
  'river',
  'garden',
  'signal',
  'paper',
  'orbit',
  'lantern',
  'meadow',
  'copper',
  'harbor',
  'violet',
];
// One entry a minute across all feeds: 1,000,000 entries span 694 days, which must end in the past (an
// entry dated in the future is placed by when it was first seen, with a date.future diagnostic).
const T0 = Date.parse('2024-01-01T00:00:00Z');

/** Feed `f` as RSS: PER_FEED items, one an hour, newest first, HTML descriptions; one in ten says "common". */
function feedXml(f) {
  const items = [];
  for (let j = PER_FEED - 1; j >= 0; j--) {
    const words = Array.from({ length: 40 }, (_, k) => WORDS[(f * 7 + j * 3 + k) % WORDS.length]).join(' ');
    const date = new Date(T0 + (j * FEEDS + f) * 60_000).toUTCString();
    const common = j % 10 === 0 ? ' common' : '';
    items.push(
      `<item><guid>f${f}-e${j}</guid><title>Entry ${j} of feed ${f}</title><link>https://feed${f}.example/e${j}</link>` +
        `<pubDate>${date}</pubDate><description>&lt;p&gt;${words}${common} &lt;b&gt;entry&lt;/b&gt; ${j}&lt;/p&gt;</description></item>`,
    );
  }
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${f}</title><link>https://feed${f}.example/</link>${items.join('')}</channel></rss>`;
}

function startFeedServer() {
  const server = createServer((req, res) => {
    const match = /^\/feed\/(\d+)\.xml$/.exec(req.url ?? '');
    if (!match) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feedXml(Number(match[1])));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The OPML of feeds `feeds` in CHANNELS folders (every feed when not given). */
function opml(base, feeds = Array.from({ length: FEEDS }, (_, f) => f)) {
  const folders = Array.from({ length: Math.min(CHANNELS, feeds.length) }, (_, c) => {
    const outlines = [];
    for (let i = c; i < feeds.length; i += CHANNELS)
      outlines.push(`<outline type="rss" text="Feed ${feeds[i]}" xmlUrl="${base}/feed/${feeds[i]}.xml"/>`);
    return `<outline text="Channel ${c}">${outlines.join('')}</outline>`;
  });
  return `<?xml version="1.0"?><opml version="2.0"><head><title>bench</title></head><body>${folders.join('')}</body></opml>`;
}

// ---- processes ------------------------------------------------------------------------------------

function run(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdin.end(input ?? '');
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`tidings ${args[0]} exited ${code}: ${err.slice(-500)}`)),
    );
  });
}

/** Starts a server process and resolves with its port, read from what it prints. */
function startProcess(args, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const look = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) resolve({ child, port: Number(match[1]) });
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${seen.slice(-500)}`)));
  });
}

// ---- HTTP measurement -------------------------------------------------------------------------------

function get(agent, port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * `clients` loops asking for `path` for `seconds` seconds on keep-alive connections; with the server's
 * pid, also the CPU the server and this load generator each spent a request (the two share the cores).
 */
async function measure(port, path, headers, clients, seconds = SECONDS, pid = undefined) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const serverCpuBefore = pid === undefined ? undefined : processTreeCpu(pid);
  const clientCpuBefore = process.cpuUsage();
  const latencies = [];
  let errors = 0;
  let bytes = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      try {
        const res = await get(agent, port, path, headers);
        if (res.status >= 400) errors += 1;
        bytes = res.body.length;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpuAfter = pid === undefined ? undefined : processTreeCpu(pid);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const serverMs =
    serverCpuBefore === undefined || serverCpuAfter === undefined
      ? undefined
      : (serverCpuAfter - serverCpuBefore) / latencies.length;
  const clientMs = (clientCpu.user + clientCpu.system) / 1000 / latencies.length;
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / elapsed, errors, bytes, serverMs, clientMs };
}

// ---- the run ------------------------------------------------------------------------------------------

async function fill() {
  const feeds = await startFeedServer();
  const base = `http://127.0.0.1:${feeds.address().port}`;
  const opmlPath = join(dir, 'bench.opml');
  writeFileSync(opmlPath, opml(base));
  let started = performance.now();
  process.stderr.write(`bench:serve: ${FEEDS} feeds x ${PER_FEED} entries in ${CHANNELS} channels\n`);
  if (USERS > 0) {
    // user u follows every STRIDE-th feed from feed u on, so that each feed has USERS * FOLLOWS / FEEDS
    // followers and a user's feeds are spread over the timeline as real follow lists are: the generator
    // orders each minute's entries by feed number, and a block of neighbouring feeds would put all of a
    // user's entries at one end of every minute (a worst case for walking the search index newest first)
    process.stderr.write(`bench:serve: ${USERS} users following ${FOLLOWS} feeds each\n`);
    for (let u = 0; u < USERS; u++) {
      await run(['user', 'add', `u${u}`], `${PASSWORD}\n`);
      const stride = Math.max(1, Math.floor(FEEDS / FOLLOWS));
      const feeds = Array.from({ length: FOLLOWS }, (_, k) => (u + k * stride) % FEEDS);
      const path = join(dir, `u${u}.opml`);
      writeFileSync(path, opml(base, feeds));
      await run(['import', '--no-fetch', '--user', `u${u}`, path]);
    }
    process.stderr.write(
      `bench:serve: users followed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } else await run(['import', '--no-fetch', opmlPath]);
  await run(['poll', '--once', '--force']);
  process.stderr.write(`bench:serve: filled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  started = performance.now();
  feeds.close();
  if (USERS === 0) await run(['password'], `${PASSWORD}\n`);
}

async function login(port) {
  const agent = new Agent({ keepAlive: false });
  const page = await get(agent, port, '/login');
  const cookie = (page.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body.toString())?.[1] ?? '';
  const body = new URLSearchParams({
    _csrf: csrf,
    ...(MEASURED ? { username: MEASURED } : {}),
    password: PASSWORD,
  }).toString();
  const res = await new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/login',
        method: 'POST',
        headers: {
          cookie,
          origin: `http://127.0.0.1:${port}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
  res.resume();
  const session = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  if (res.statusCode !== 302 && res.statusCode !== 303) throw new Error(`login answered ${res.statusCode}`);
  return session || cookie;
}

async function main() {
  if (!existsSync(cli)) throw new Error('run `npm run build` first (npm run bench:serve does)');
  if (!existsSync(dbPath)) await fill();
  const asUser = MEASURED ? ['--user', MEASURED] : [];
  const token = (await run(['token', 'create', '--scope', 'read', ...asUser])).trim().split('\n').at(-1);
  const hello = await startProcess([join(root, 'scripts/bench-hello.mjs')], /hello on (\d+)/);
  // TIDINGS_BENCH_CPU_PROF=DIR: a V8 CPU profile of the server, written there when it stops
  const profile = process.env.TIDINGS_BENCH_CPU_PROF;
  const serve = await startProcess(
    [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      cli,
      'serve',
      '--port',
      '0',
      '--no-poller',
      '--processes',
      String(PROCESSES),
    ],
    /tidings: serving on http:\/\/[^:]+:(\d+)/,
  );
  try {
    const auth = { authorization: `Bearer ${token}` };
    const cookie = { cookie: await login(serve.port) };
    const agent = new Agent({ keepAlive: true });
    const channels = JSON.parse(
      (await get(agent, serve.port, '/microsub?action=channels', auth)).body,
    ).channels;
    const channel = channels.find((c) => c.uid !== 'notifications') ?? channels[0];
    const ms = (query) => `/microsub?${new URLSearchParams({ ...query, channel: channel.uid })}`;
    const first = JSON.parse((await get(agent, serve.port, ms({ action: 'timeline' }), auth)).body);
    let cursor = first.paging?.after;
    for (let i = 0; i < 20 && cursor; i++)
      cursor = JSON.parse(
        (await get(agent, serve.port, ms({ action: 'timeline', after: cursor }), auth)).body,
      ).paging?.after;
    agent.destroy();
    // the reader's pages of one entry and one feed (ids as Microsub gives them)
    const firstItem = first.items?.[0];
    const entryId = firstItem?._id;
    const feedId = firstItem?._source;
    const listMode = { cookie: `${cookie.cookie}; tidings_mode=list` };
    // a page of saved entries for the Saved view (starred through Microsub, as a client would)
    const save = new URLSearchParams({ action: 'timeline', method: 'save', channel: channel.uid });
    for (const item of first.items ?? []) save.append('entry[]', item._id);
    const saved = await fetch(`http://127.0.0.1:${serve.port}/microsub`, {
      method: 'POST',
      headers: auth,
      body: save,
    });
    if (!saved.ok) throw new Error(`saving entries answered ${saved.status}`);
    const targets = [
      ['hello-world', hello.port, '/', {}],
      ['microsub channels', serve.port, '/microsub?action=channels', auth],
      ['timeline first page', serve.port, ms({ action: 'timeline' }), auth],
      [
        'timeline deep page',
        serve.port,
        ms({ action: 'timeline', ...(cursor ? { after: cursor } : {}) }),
        auth,
      ],
      ['timeline unread only', serve.port, ms({ action: 'timeline', is_read: 'false' }), auth],
      ['search in a channel', serve.port, ms({ action: 'search', query: 'common' }), auth],
      [
        'search everywhere',
        serve.port,
        `/microsub?${new URLSearchParams({ action: 'search', query: 'common', channel: 'global' })}`,
        auth,
      ],
      ['web: main page (a redirect)', serve.port, '/', cookie],
      ['web: channel page', serve.port, `/c/${channel.uid}`, cookie],
      ['web: unread only', serve.port, `/c/${channel.uid}?unread=1`, cookie],
      ['web: all unread', serve.port, '/all', cookie],
      ['web: channel page, list mode', serve.port, `/c/${channel.uid}`, listMode],
      ...(feedId ? [['web: one feed', serve.port, `/c/${channel.uid}?feed=${feedId}`, cookie]] : []),
      ...(entryId ? [['web: entry page', serve.port, `/c/${channel.uid}/e/${entryId}`, cookie]] : []),
      ['web: saved', serve.port, '/saved', cookie],
      ['web: feed health', serve.port, '/feeds', cookie],
    ];
    const results = [];
    // --only PATTERN measures the requests whose names match it (and the hello-world, for the ratios)
    const only = option('only', undefined);
    const chosen = targets.filter(([name], i) => i === 0 || !only || new RegExp(only).test(name));
    for (const [name, port, path, headers] of chosen) {
      const pid = port === hello.port ? hello.child.pid : serve.child.pid;
      // unmeasured first: the first requests of a page compile its code (the JIT) and warm its caches
      await measure(port, path, headers, 1, WARM_UP_SECONDS);
      const one = await measure(port, path, headers, 1);
      const many = await measure(port, path, headers, 32, SECONDS, pid);
      results.push({ name, one, many });
      process.stderr.write(`bench:serve: ${name} done\n`);
    }
    const base = results[0];
    const people =
      USERS > 0
        ? `, ${USERS} users following ${FOLLOWS} feeds each in ${CHANNELS} channels, measured as ${MEASURED}`
        : '';
    console.log(
      `\n${SIZE.toLocaleString('en')} entries (${FEEDS} feeds x ${PER_FEED}, ${CHANNELS} channels${people}), ${SECONDS} s per cell after ${WARM_UP_SECONDS} s unmeasured; serve --processes ${PROCESSES}, hello-world as ${PROCESSES} process${PROCESSES === 1 ? '' : 'es'}`,
    );
    console.log(
      '| request | p50 @1 (ms) | x hello | p50 @32 (ms) | p99 @32 (ms) | req/s @32 | % hello req/s | server CPU/req @32 (ms) | bench CPU/req @32 (ms) | errors | bytes |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const cpu = (ms) => (ms === undefined ? '' : ms.toFixed(3));
    for (const { name, one, many } of results)
      console.log(
        `| ${name} | ${one.p50.toFixed(2)} | ${(one.p50 / base.one.p50).toFixed(1)} | ${many.p50.toFixed(1)} | ${many.p99.toFixed(1)} | ${many.rps.toFixed(0)} | ${((100 * many.rps) / base.many.rps).toFixed(1)} | ${cpu(many.serverMs)} | ${cpu(many.clientMs)} | ${one.errors + many.errors} | ${one.bytes} |`,
      );
  } finally {
    serve.child.kill('SIGTERM');
    hello.child.kill('SIGTERM');
    if (option('db', undefined) === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
