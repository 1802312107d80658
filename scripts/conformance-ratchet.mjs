#!/usr/bin/env node
// Runs the Universal Feed Parser's test corpus (../shared/conformance) through `tidings parse --jsonl`
// and fails when fewer tests pass than the figure recorded in conformance.json (a ratchet: the figure
// only goes up). `--record` writes the new figure when it is higher.
//
// The harness starts PARSE_CMD once per batch of documents, and 95 of its 106 batches are one document
// each (every HTTP test has its own base URL): 106 starts of the CLI took most of the time. So tidings
// runs here, in this process, from the tree scripts/transpile.mjs wrote, and PARSE_CMD is
// scripts/conformance-client.mjs, which passes its arguments over a socket and prints the answer.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILD_DIR, transpile } from './transpile.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const shared = process.env.TIDINGS_SHARED_DIR || fileURLToPath(new URL('../../shared', import.meta.url));
const harness = `${shared}/conformance/run_feedparser_suite.py`;
const recordFile = `${root}conformance.json`;
const record = process.argv.includes('--record');

// A clone alone has no ../shared (and maybe no python3): one line, and a pass, except under CI, which
// must run the conformance check (test/helpers/shared.ts treats CI the same way).
const ci = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());
const missing = !existsSync(harness)
  ? `the harness is not at ${harness} (set TIDINGS_SHARED_DIR)`
  : spawnSync('python3', ['--version']).error
    ? 'python3 is not installed'
    : undefined;
if (missing) {
  console.error(`conformance: ${ci ? 'FAILED under CI' : 'SKIPPED'}, ${missing}`);
  process.exit(ci ? 1 : 0);
}
if (process.env.TIDINGS_TRANSPILED !== '1') await transpile();
const parser = await startParseServer();
const run = await runHarness([harness, '-j', '2', '--report', `${root}.tmp-conformance-report.txt`], {
  ...process.env,
  PARSE_CMD: `${process.execPath} ${fileURLToPath(new URL('conformance-client.mjs', import.meta.url))} parse --jsonl`,
  TIDINGS_PARSE_SOCKET: parser.socketPath,
});
parser.close();
process.stdout.write(run.stdout);
process.stderr.write(run.stderr);
const match = /(\d+) passed, (\d+) failed\s*$/.exec(run.stdout);
if (run.status !== 0 || !match) {
  console.error('conformance: the harness did not finish');
  process.exit(1);
}
const passed = Number(match[1]);
const failed = Number(match[2]);
const recorded = JSON.parse(readFileSync(recordFile, 'utf8'));
if (passed < recorded.passed) {
  console.error(
    `conformance: FAILED, ${passed} passed, fewer than the ${recorded.passed} recorded in conformance.json`,
  );
  console.error('see .tmp-conformance-report.txt for the failures');
  process.exit(1);
}
if (record && passed > recorded.passed) {
  writeFileSync(recordFile, `${JSON.stringify({ passed, mapped: passed + failed }, null, 2)}\n`);
  console.log(`conformance: recorded ${passed} of ${passed + failed} in conformance.json`);
} else if (passed > recorded.passed) {
  console.log(
    `conformance: ${passed} passed, more than the ${recorded.passed} recorded: run npm run conformance:record`,
  );
} else console.log(`conformance: ${passed} of ${passed + failed} passed (ratchet ${recorded.passed})`);

/** Runs the harness without blocking this process, which answers its parse requests meanwhile. */
function runHarness(args, env) {
  return new Promise((resolve) => {
    const child = spawn('python3', args, { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Listens on a Unix socket for the arguments of one `tidings` command line (a JSON array) and answers
 * with its exit code, stdout and stderr, running the commands one at a time through runCommand, as
 * src/cli.ts does.
 */
async function startParseServer() {
  const { runCommand } = await import(pathToFileURL(join(BUILD_DIR, 'src', 'cli', 'program.js')).href);
  const socketPath = join(tmpdir(), `tidings-parse-${process.pid}.sock`);
  rmSync(socketPath, { force: true });
  let queue = Promise.resolve();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      const args = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      queue = queue.then(async () => socket.end(JSON.stringify(await runCaptured(runCommand, args))));
    });
  });
  await new Promise((resolve) => server.listen(socketPath, resolve));
  return { socketPath, close: () => server.close() };
}

async function runCaptured(runCommand, args) {
  const out = { stdout: '', stderr: '' };
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const key of ['stdout', 'stderr'])
    process[key].write = (chunk) => {
      out[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    };
  try {
    const end = await runCommand(['node', 'tidings', ...args]);
    return { code: end.exitCode, ...out };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    process.exitCode = undefined;
  }
}
