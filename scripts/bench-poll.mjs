#!/usr/bin/env node
// npm run bench:poll: polls the feed farm (../shared/perf/feedfarm.mjs: N feeds on several loopback
// hosts, 50-300 ms latency, conditional GET and every kind of fault) through the real CLI, two rounds,
// and prints per round: wall time, requests, conditional requests and 304s, peak memory, beside the
// bound N x mean latency / concurrency. Then it checks what a good poller must do: in round 2 every
// unchanged feed is one conditional request answered 304, 410 and 429 feeds get no request, no URL is
// fetched twice, and every feed ends in the heartbeat status its fault calls for.
//
//   node scripts/bench-poll.mjs [clean|trouble|large ...]   (default: all three)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
};

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

const wanted = process.argv.slice(2).filter((a) => a in SCENARIOS);
console.log(
  `bench:poll: tidings poll --once through the real CLI, concurrency ${CONCURRENCY}, 2 per host, timeout ${TIMEOUT_S} s`,
);
for (const name of wanted.length ? wanted : Object.keys(SCENARIOS)) await runScenario(name);
