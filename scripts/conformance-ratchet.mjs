#!/usr/bin/env node
// Runs the Universal Feed Parser's test corpus (../shared/conformance) through `tidings parse --jsonl`
// and fails when fewer tests pass than the figure recorded in conformance.json (a ratchet: the figure
// only goes up). `--record` writes the new figure when it is higher.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
const run = spawnSync('python3', [harness, '-j', '2', '--report', `${root}.tmp-conformance-report.txt`], {
  cwd: root,
  env: { ...process.env, PARSE_CMD: `${process.execPath} dist/cli.js parse --jsonl` },
  encoding: 'utf8',
});
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
