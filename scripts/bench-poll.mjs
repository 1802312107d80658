#!/usr/bin/env node
// npm run bench:poll: polls the feed farm (../shared/perf/feedfarm.mjs: N feeds on several loopback
// hosts, 50-300 ms latency, conditional GET and every kind of fault) through the real CLI, two rounds,
// and prints per round: wall time, requests, conditional requests and 304s, peak memory, beside the
// bound N x mean latency / concurrency. Then it checks what a good poller must do: in round 2 every
// unchanged feed is one conditional request answered 304, 410 and 429 feeds get no request, no URL is
// fetched twice, and every feed ends in the heartbeat status its fault calls for.
//
//   node scripts/bench-poll.mjs [clean|trouble|large|workers ...]   (default: the first three)
//
// `workers` (needs TIDINGS_BENCH_PG_URL or TIDINGS_TEST_PG_URL) compares, on two farms of 1,000 clean feeds
// alike, one SQLite `poll --once` with two `poll --once` started together on one PostgreSQL database (a
// schema of its own, dropped after), and prints the CPU seconds PostgreSQL's processes used meanwhile.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpu } from './process-cpu.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = process.env.TIDINGS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url));
const farmScript = join(shared, 'perf/feedfarm.mjs');
const CONCURRENCY = 32;
const MEAN_LATENCY_S = 0.175;
const TIMEOUT_S = 30;

const SCENARIOS = {
  clean: {
    title: '1,000 clean feeds, 20 hosts',
    feeds: 1000,
    args: ['--trouble', '0', '--slow', '0', '--huge', '0'],
    rounds: 2,
  },
  trouble: {
    title: '1,000 feeds, 10% trouble, 5 answering after 45 s, one 50 MB body',
    feeds: 1000,
    args: ['--trouble', '0.1', '--slow', '5', '--slow-ms', '45000', '--huge', '1', '--huge-mb', '50'],
    rounds: 2,
  },
  large: {
    title: '10,000 clean feeds, 20 hosts, one round',
    feeds: 10000,
    args: ['--trouble', '0', '--slow', '0', '--huge', '0'],
    rounds: 1,
  },
  workers: {
    title: '1,000 clean feeds, 20 hosts: one SQLite process against two PostgreSQL workers',
    feeds: 1000,
    args: ['--trouble', '0', '--slow', '0', '--huge', '0'],
    rounds: 1,
  },
};
const DEFAULT_SCENARIOS = ['clean', 'trouble', 'large'];

// The heartbeat status each kind of farm feed must end in.
const EXPECTED_STATUS = {
  ok: ['ok', 'not_modified'],
  moved301: ['ok', 'not_modified'],
  temp302: ['ok', 'not_modified'],
  gone404: ['fetch_error'],
  gone410: ['gone'],
  error500: ['fetch_error'],
  limited429: ['fetch_error'],
  // a site's page linking its feed: the first poll follows the link (poll/linked-feed.ts)
  html: ['ok', 'parse_error'],
  truncated: ['parse_error'],
  badcharset: ['encoding_error'],
  malformed: ['parse_error'],
  slow: ['fetch_error'],
  huge: ['fetch_error'],
};

async function startFarm(dir, scenario) {
  const ready = join(dir, 'ready');
  const opml = join(dir, 'farm.opml');
  const args = [
    farmScript,
    '--feeds',
    String(scenario.feeds),
    '--port',
    '0',
    '--latency',
    '50-300',
    '--hosts',
    '20',
  ];
  const farm = spawn(
    process.execPath,
    [...args, ...scenario.args, '--ready-file', ready, '--opml-out', opml, '--max-requests', '1000000'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let i = 0; i < 300 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(ready)) throw new Error('bench:poll: the feed farm did not start');
  await new Promise((r) => setTimeout(r, 200));
  return { farm, base: readFileSync(ready, 'utf8').trim(), opml };
}

function tidings(args, env) {
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '__maxrss_kb=%M'] : [];
  const cmd = [...time, process.execPath, join(root, 'dist/cli.js'), ...args];
  const started = process.hrtime.bigint();
  const run = spawnSync(cmd[0], cmd.slice(1), {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0)
    throw new Error(`bench:poll: tidings ${args.join(' ')} failed: ${run.stderr.slice(-2000)}`);
  const rss = /__maxrss_kb=(\d+)/.exec(run.stderr);
  return { seconds, stdout: run.stdout, peakMb: rss ? Number(rss[1]) / 1024 : undefined };
}

// The farm's control endpoints, each on a new connection: spawnSync blocks this process's event loop
// for a whole round, so a kept-alive socket that the farm closed meanwhile would still look open and
// fail the next request ("other side closed").
function control(url, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

async function stats(base) {
  return JSON.parse(await control(`${base}/__stats?paths=1&kinds=1`));
}

function pad(value, width) {
  return String(value).padStart(width);
}

async function runScenario(name) {
  const scenario = SCENARIOS[name];
  const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-poll-'));
  const { farm, base, opml } = await startFarm(dir, scenario);
  const env = {
    TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
    TIDINGS_LOG_LEVEL: 'silent',
  };
  const bound = (scenario.feeds * MEAN_LATENCY_S) / CONCURRENCY;
  const rows = [];
  const problems = [];
  try {
    tidings(['import', '--no-fetch', opml], env);
    let previous = { requests: 0, conditional: 0, notModified: 0 };
    for (let round = 1; round <= scenario.rounds; round++) {
      if (round > 1) await control(`${base}/__advance`, 'POST');
      const run = tidings(['poll', '--once', ...(round > 1 ? ['--force'] : [])], env);
      const s = await stats(base);
      const r = s.byRound[String(round)] ?? previous;
      rows.push({
        round,
        ...run,
        requests: r.requests,
        conditional: r.conditional,
        notModified: r.notModified,
      });
      checkRound(s, round, problems);
      previous = r;
    }
    const status = JSON.parse(tidings(['status', '--json'], env).stdout);
    checkStatuses(status.feeds, (await stats(base)).feedKinds, problems);
  } finally {
    farm.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  const limit = name === 'trouble' ? TIMEOUT_S * 1.25 : bound * 1.25;
  console.log(
    `\n${scenario.title}: bound N x ${MEAN_LATENCY_S * 1000} ms / ${CONCURRENCY} = ${bound.toFixed(1)} s; target per round ${limit.toFixed(1)} s`,
  );
  console.log('round   wall s   x bound   requests   conditional   304s   peak MB');
  for (const row of rows) {
    console.log(
      `${pad(row.round, 5)} ${pad(row.seconds.toFixed(1), 8)} ${pad((row.seconds / bound).toFixed(2), 9)} ${pad(row.requests, 10)} ${pad(row.conditional, 13)} ${pad(row.notModified, 6)} ${pad(row.peakMb?.toFixed(0) ?? 'n/a', 9)}  ${row.seconds <= limit ? 'within target' : 'OVER TARGET'}`,
    );
  }
  console.log(
    problems.length
      ? `checks: ${problems.length} problems\n  ${problems.slice(0, 20).join('\n  ')}`
      : 'checks: all passed',
  );
}

/** No URL twice in a round; in round 2, 410 and 429 feeds untouched and unchanged feeds asked conditionally. */
function checkRound(s, round, problems) {
  for (const [path, p] of Object.entries(s.paths)) {
    if ((p.byRound[round] ?? 0) > 1)
      problems.push(`round ${round}: ${path} fetched ${p.byRound[round]} times`);
  }
  if (round < 2) return;
  for (const kind of ['gone410', 'limited429']) {
    const r = s.byKind[kind]?.[round];
    if (r && r.requests > 0) problems.push(`round ${round}: ${r.requests} requests to ${kind} feeds`);
  }
  const ok = s.byKind.ok?.[round];
  if (ok && ok.conditional < ok.requests)
    problems.push(`round ${round}: ${ok.requests - ok.conditional} unconditional requests to ok feeds`);
}

function checkStatuses(feeds, kinds, problems) {
  for (const feed of feeds) {
    const id = Number(/\/(\d+)\.xml$/.exec(feed.originalUrl)?.[1]);
    const kind = kinds[id];
    if (!EXPECTED_STATUS[kind]?.includes(feed.status))
      problems.push(`feed ${id} (${kind}) ended ${feed.status}: ${feed.message}`);
  }
}

/**
 * Runs `tidings args` without blocking, resolving with its wall time, its CPU seconds (user + system,
 * through /usr/bin/time where there is one) and its output. TIDINGS_BENCH_CPU_PROF=DIR writes a V8 CPU
 * profile of each run there.
 */
function tidingsAsync(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '__cpu_s=%U+%S'] : [];
    const profile = process.env.TIDINGS_BENCH_CPU_PROF;
    const node = [process.execPath, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])];
    const cmd = [...time, ...node, join(root, 'dist/cli.js'), ...args];
    const child = spawn(cmd[0], cmd.slice(1), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`bench:poll: tidings ${args.join(' ')} failed: ${err.slice(-2000)}`));
      else {
        const cpu = /__cpu_s=([\d.]+)\+([\d.]+)/.exec(err);
        resolve({ seconds, stdout: out, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined });
      }
    });
  });
}

/** CPU seconds (user + system) of every process whose command is `postgres`, by pid. */
function postgresCpu() {
  const byPid = new Map();
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const cpu = processCpu(pid); // undefined when the process ended meanwhile
    if (cpu?.name === 'postgres') byPid.set(pid, cpu.cpuMs / 1000);
  }
  return byPid;
}

/**
 * Samples PostgreSQL's processes every 100 ms until stopped and returns the CPU seconds they used
 * meanwhile: a connection's backend ends with its client, so its last sample is what it used.
 */
function watchPostgresCpu() {
  const first = postgresCpu();
  const last = new Map(first);
  const timer = setInterval(() => {
    for (const [pid, seconds] of postgresCpu()) last.set(pid, seconds);
  }, 100);
  return () => {
    clearInterval(timer);
    for (const [pid, seconds] of postgresCpu()) last.set(pid, seconds);
    let total = 0;
    for (const [pid, seconds] of last) total += seconds - (first.get(pid) ?? 0);
    return total;
  };
}

async function runWorkers() {
  const scenario = SCENARIOS.workers;
  const pgUrl = process.env.TIDINGS_BENCH_PG_URL ?? process.env.TIDINGS_TEST_PG_URL;
  if (!pgUrl) {
    console.log('\nworkers: skipped (set TIDINGS_BENCH_PG_URL or TIDINGS_TEST_PG_URL)');
    return;
  }
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const schema = `tidings_bench_${process.pid}`;
  const bound = (scenario.feeds * MEAN_LATENCY_S) / CONCURRENCY;
  const results = [];
  try {
    // one SQLite process
    const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-poll-'));
    let farm = await startFarm(dir, scenario);
    try {
      const env = {
        TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
        TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
        TIDINGS_LOG_LEVEL: 'silent',
      };
      tidings(['import', '--no-fetch', farm.opml], env);
      const run = await tidingsAsync(['poll', '--once'], env);
      results.push({
        label: 'one SQLite process',
        seconds: run.seconds,
        polled: [run.stdout],
        cpu: [run.cpu],
      });
    } finally {
      farm.farm.kill();
    }
    // two PostgreSQL workers on a farm alike (a directory of its own: the first farm's ready file stays)
    const dir2 = mkdtempSync(join(tmpdir(), 'tidings-bench-poll-'));
    farm = await startFarm(dir2, scenario);
    try {
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(pgUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = {
        TIDINGS_DATABASE_URL: url.toString(),
        TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
        TIDINGS_LOG_LEVEL: 'silent',
      };
      tidings(['import', '--no-fetch', farm.opml], env);
      const stopWatching = watchPostgresCpu();
      const started = process.hrtime.bigint();
      const runs = await Promise.all([
        tidingsAsync(['poll', '--once'], env),
        tidingsAsync(['poll', '--once'], env),
      ]);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const s = await stats(farm.base);
      results.push({
        label: 'two PostgreSQL workers',
        seconds,
        polled: runs.map((r) => r.stdout),
        cpu: runs.map((r) => r.cpu),
        pgCpu: stopWatching(),
        requests: s.requests,
      });
    } finally {
      farm.farm.kill();
      rmSync(dir, { recursive: true, force: true });
      rmSync(dir2, { recursive: true, force: true });
    }
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  console.log(`\n${scenario.title}: bound ${bound.toFixed(1)} s`);
  console.log(
    'run                         wall s   x bound   feeds polled   tidings CPU s   PostgreSQL CPU s',
  );
  for (const r of results) {
    const polled = r.polled.map((out) => /polled (\d+) feeds?/.exec(out)?.[1] ?? '?').join(' + ');
    const cpu = r.cpu.map((s) => (s === undefined ? '?' : s.toFixed(1))).join(' + ');
    console.log(
      `${r.label.padEnd(26)} ${pad(r.seconds.toFixed(1), 7)} ${pad((r.seconds / bound).toFixed(2), 9)} ${pad(polled, 14)} ${pad(cpu, 15)} ${pad(r.pgCpu === undefined ? '-' : r.pgCpu.toFixed(1), 18)}`,
    );
  }
  const [one, two] = results;
  if (one && two)
    console.log(
      two.seconds <= one.seconds
        ? 'two PostgreSQL workers: no slower than one SQLite process'
        : `two PostgreSQL workers: ${(two.seconds / one.seconds).toFixed(2)}x one SQLite process`,
    );
}

const wanted = process.argv.slice(2).filter((a) => a in SCENARIOS);
console.log(
  `bench:poll: tidings poll --once through the real CLI, concurrency ${CONCURRENCY}, 2 per host, timeout ${TIMEOUT_S} s`,
);
for (const name of wanted.length ? wanted : DEFAULT_SCENARIOS) {
  if (name === 'workers') await runWorkers();
  else await runScenario(name);
}
