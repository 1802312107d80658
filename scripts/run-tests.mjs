#!/usr/bin/env node
// Runs the tests: every *.test.ts under src/ and test/, or the files named, e.g.
//   node scripts/run-tests.mjs test/cli.test.ts src/parse/dates/dates.test.ts
// Other arguments go to `node --test`, e.g. `--test-name-pattern=dates` or `--test-concurrency=1`.
//
// What it does for speed (issue 23), in order:
// - transpiles src/ and test/ once into .tmp/build/ (scripts/transpile.mjs) and runs the JavaScript:
//   under tsx each of the ~160 test processes compiled its TypeScript again;
// - runs several test files at once (TIDINGS_TEST_CONCURRENCY, default 4 on this 2-core machine: much
//   of a test's time is spent waiting on PostgreSQL, Chromium, servers and child processes), the files
//   that took longest last time first (.tmp/test-times.json);
// - starts one Chromium for the whole run when browser tests are among the files; they connect to it
//   (TIDINGS_TEST_BROWSER_WS, test/browser/chromium.ts) instead of launching one each;
// - gives the tests a temporary folder in /dev/shm (TMPDIR), so SQLite's temp stores live in memory.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DIR, transpile } from './transpile.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIMES = join(ROOT, '.tmp', 'test-times.json');
const REPORT = join(ROOT, '.tmp', 'test-report.json');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (/\.test\.tsx?$/.test(name)) out.push(relative(ROOT, path));
  }
  return out;
}

function readTimes() {
  try {
    return JSON.parse(readFileSync(TIMES, 'utf8')).files ?? {};
  } catch {
    return {};
  }
}

// Without times from an earlier run (a fresh clone), these start first: the slowest files, as measured on
// 2026-12-04 with each file alone. A file renamed since simply starts in its turn.
const SLOW_FIRST = [
  'test/poll/farm-workers.test.ts',
  'test/poll/one-claim-per-round.test.ts',
  'src/parse/xml/entities.test.ts',
  'test/cli-mistakes.test.ts',
  'test/subscriptions/front-ends.test.ts',
  'src/store/scale.test.ts',
  'test/parse-linearity.test.ts',
  'test/browser/keys.test.ts',
  'src/store/store.test.ts',
  'test/cli.test.ts',
  'test/browser/web.test.ts',
  'test/fever/validation.test.ts',
  'test/browser/hostile.test.ts',
  'test/greader/contents.test.ts',
  'test/browser/layout.test.ts',
  'test/browser/reader.test.ts',
];

// Files that run in a process of their own when the whole suite runs: the long ones (so that they start
// first and run beside the rest), the browser tests, and those with hooks at their top level (a hook of
// the root test would run around the other files of a shared process too).
const ALONE = new Set([
  ...SLOW_FIRST,
  'src/store/store.test.ts',
  'src/store/reading/reading.test.ts',
  'src/store/reading/search.test.ts',
  'src/store/reading/filters.test.ts',
  'src/store/sqlite/checkpoints.test.ts',
  'test/cli-poll.test.ts',
  'test/fever/budget.test.ts',
  'test/fever/validation.test.ts',
  'test/greader/contents.test.ts',
  'test/greader/validation.test.ts',
  'test/microsub/page-budget.test.ts',
  'test/microsub/token-cli.test.ts',
  'test/microsub/validation.test.ts',
  'test/poll/parse-limits.test.ts',
  'test/poll/statuses.test.ts',
  'test/sanitize-stable.test.ts',
  // twice in eight whole runs (2026-12-06), in a process of eight files, its after hook waited on a promise
  // that nothing was left to settle ("the event loop has already resolved"), failing every file after it;
  // alone it passed every time: it runs alone while the cause is looked for (see the stop-35 note)
  'test/server/api-failure-log.test.ts',
]);
const ALONE_FOLDERS = ['src/fetch/'];
const GROUP_SIZE = 8;
/**
 * The browser test files run in this many processes, a few files each: a browser test's process spends
 * about 1 s of CPU importing Playwright, the server and the store before its first test.
 */
const BROWSER = 'test/browser/';
const BROWSER_PROCESSES = 3;

/**
 * The whole suite's light files, GROUP_SIZE at a time in the order of their paths (so that a group holds
 * neighbours, which import much the same modules), each group in one process that imports its files in
 * turn: a process and its imports cost 0.3 to 0.6 s of CPU before a test runs, and most files' tests take
 * less than that. Groups used to stop at a folder's end: 42 processes where 19 do, and 14 s more CPU
 * (2026-12-06). The longest groups (by last run's times) start first. Returns the files for node --test.
 */
function grouped(files) {
  const times = readTimes();
  const light = [];
  const out = [];
  const browser = files.filter((file) => file.startsWith(BROWSER));
  const dir = join(BUILD_DIR, '.groups');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const total = (group) => group.reduce((sum, file) => sum + (times[file] ?? 0), 0);
  const write = (name, part) => {
    const lines = part.map((f) => `import '../${f.replace(/\.tsx?$/, '.js')}';`);
    writeFileSync(
      join(dir, name),
      `// ${part.length} test files in one process (scripts/run-tests.mjs)\n${lines.join('\n')}\n`,
    );
    return join(dir, name);
  };
  for (const file of files) {
    // the browser processes start where the longest browser file would (files come longest first)
    if (file === browser[0])
      balanced(browser, BROWSER_PROCESSES, times).forEach((part, i) => {
        out.push(write(`browser-${i + 1}.test.js`, part));
      });
    else if (file.startsWith(BROWSER)) continue;
    else if (ALONE.has(file) || ALONE_FOLDERS.some((folder) => file.startsWith(folder)))
      out.push(join(BUILD_DIR, file.replace(/\.tsx?$/, '.js')));
    else light.push(file);
  }
  light.sort();
  const groups = [];
  for (let i = 0; i < light.length; i += GROUP_SIZE) groups.push(light.slice(i, i + GROUP_SIZE));
  groups.sort((a, b) => total(b) - total(a));
  groups.forEach((part, i) => {
    out.push(write(`group-${String(i + 1).padStart(2, '0')}.test.js`, part));
  });
  return out;
}

/** `files` (longest first) dealt into `count` parts of about equal time: each to the part with the least. */
function balanced(files, count, times) {
  const parts = Array.from({ length: Math.min(count, files.length) }, () => ({ files: [], ms: 0 }));
  for (const file of files) {
    const part = parts.reduce((least, p) => (p.ms < least.ms ? p : least));
    part.files.push(file);
    // without times (a fresh clone) each file counts alike
    part.ms += times[file] ?? 1;
  }
  return parts.map((p) => p.files);
}

/** The files in the order to start them: longest first, so that no long file starts last. */
function schedule(files) {
  const times = readTimes();
  const rank = (file) => times[file] ?? (SLOW_FIRST.includes(file) ? 1e9 - SLOW_FIRST.indexOf(file) : 0);
  return [...files].sort((a, b) => rank(b) - rank(a) || a.localeCompare(b));
}

async function startChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

const args = process.argv.slice(2);
const named = args.filter((a) => !a.startsWith('-')).map((a) => relative(ROOT, resolve(a)));
const flags = args.filter((a) => a.startsWith('-'));
const files = schedule(named.length > 0 ? named : [...findTests('src'), ...findTests('test')]);
for (const file of files) {
  if (!/\.test\.tsx?$/.test(file) || !existsSync(join(ROOT, file))) {
    console.error(`run-tests: ${file} is not a test file (*.test.ts under src/ or test/)`);
    process.exit(2);
  }
}

const started = performance.now();
// scripts/test.mjs transpiles once for all its steps and says so
if (process.env.TIDINGS_TRANSPILED !== '1') {
  const written = await transpile();
  console.error(
    `run-tests: transpiled (${written} files written) in ${Math.round(performance.now() - started)} ms`,
  );
}

const env = { ...process.env, TIDINGS_TEST_BUILD: BUILD_DIR };
const shm = existsSync('/dev/shm') ? '/dev/shm' : undefined;
const tmp = mkdtempSync(join(shm ?? join(ROOT, '.tmp'), 'tidings-tests-'));
env.TMPDIR = tmp;

let browserServer;
if (
  files.some((f) => f.startsWith('test/browser/')) &&
  existsSync(CHROMIUM) &&
  !env.TIDINGS_TEST_BROWSER_WS
) {
  browserServer = await startChromium();
  env.TIDINGS_TEST_BROWSER_WS = browserServer.wsEndpoint();
}

const concurrency = Number(process.env.TIDINGS_TEST_CONCURRENCY) || 4;
const reporters = flags.some((f) => f.startsWith('--test-reporter'))
  ? []
  : [
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(ROOT, 'scripts', 'test-times-reporter.mjs')}`,
      `--test-reporter-destination=${REPORT}`,
    ];
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const child = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    `--test-concurrency=${concurrency}`,
    ...reporters,
    ...flags,
    ...(named.length > 0 || process.env.TIDINGS_TEST_GROUPS === '0'
      ? files.map((f) => join(BUILD_DIR, f.replace(/\.tsx?$/, '.js')))
      : grouped(files)),
  ],
  { stdio: 'inherit', env },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const status = await new Promise((done) =>
  child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))),
);
await browserServer?.close();
rmSync(tmp, { recursive: true, force: true });
if (reporters.length > 0) summarize();
process.exit(status);

/** Prints the counts of this run and keeps its files' times for the next run's order. */
function summarize() {
  let report;
  try {
    report = JSON.parse(readFileSync(REPORT, 'utf8'));
  } catch {
    return;
  }
  const times = readTimes();
  // the file of a test, as node:test names it: the .ts source when source maps lead there
  for (const [file, ms] of Object.entries(report.files)) {
    const path = file.startsWith(BUILD_DIR)
      ? relative(BUILD_DIR, file).replace(/\.js$/, '.ts')
      : relative(ROOT, file);
    times[path] = Math.round(ms);
  }
  writeFileSync(TIMES, `${JSON.stringify({ files: times }, null, 1)}\n`);
  const c = report.counts;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `run-tests: ${c.tests} tests in ${files.length} files, ${c.pass} passed, ${c.fail} failed, ` +
      `${c.skipped} skipped, ${c.todo} todo, ${c.cancelled} cancelled (${seconds} s, concurrency ${concurrency})`,
  );
}
