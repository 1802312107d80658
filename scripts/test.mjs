#!/usr/bin/env node
// `npm test`: transpiles src/ and test/ once (scripts/transpile.mjs), then runs the four checks side by
// side: lint (Biome), types (tsc --noEmit), the tests (scripts/run-tests.mjs) and the conformance ratchet
// (scripts/conformance-ratchet.mjs). The tests print as they go; the other steps print when they end.
// A summary gives each step's time; the exit status is 1 when any step failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpile } from './transpile.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');
const node = process.execPath;

const STEPS = [
  // --incremental keeps what the last check learned in .tmp/: a run after small changes checks in about
  // 5 s of CPU instead of 19 (a fresh clone still checks everything)
  {
    name: 'types',
    command: node,
    args: [join(BIN, 'tsc'), '--noEmit', '--incremental', '--tsBuildInfoFile', '.tmp/tsc.tsbuildinfo'],
  },
  { name: 'lint', command: node, args: [join(BIN, 'biome'), 'check', '.'] },
  { name: 'tests', command: node, args: ['scripts/run-tests.mjs'], live: true },
  { name: 'conformance', command: node, args: ['scripts/conformance-ratchet.mjs'] },
];

function run(step, env) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd: ROOT, env, stdio: step.live ? 'inherit' : 'pipe' });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (!step.live) process.stdout.write(`\n── ${step.name} (${seconds.toFixed(1)} s) ──\n${output}`);
      resolve({ name: step.name, ok: code === 0, seconds });
    });
  });
}

function testCounts() {
  try {
    const { counts: c } = JSON.parse(readFileSync(join(ROOT, '.tmp', 'test-report.json'), 'utf8'));
    return ` (${c.tests} tests: ${c.pass} passed, ${c.fail} failed, ${c.skipped} skipped)`;
  } catch {
    return '';
  }
}

const started = performance.now();
const changed = await transpile();
const transpileSeconds = (performance.now() - started) / 1000;
const env = { ...process.env, TIDINGS_TRANSPILED: '1' };
const results = await Promise.all(STEPS.map((step) => run(step, env)));

console.log('\n── npm test ──');
console.log(`transpile    ok      ${transpileSeconds.toFixed(1).padStart(6)} s  (${changed} files written)`);
for (const r of results) {
  const extra = r.name === 'tests' ? testCounts() : '';
  console.log(
    `${r.name.padEnd(12)} ${(r.ok ? 'ok' : 'FAILED').padEnd(6)} ${r.seconds.toFixed(1).padStart(6)} s${extra}`,
  );
}
const failed = results.filter((r) => !r.ok).map((r) => r.name);
const total = ((performance.now() - started) / 1000).toFixed(1);
console.log(failed.length === 0 ? `all passed in ${total} s` : `FAILED: ${failed.join(', ')} (${total} s)`);
process.exit(failed.length === 0 ? 0 : 1);
