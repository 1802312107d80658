// What the CLI tests assert of a command line's result (helpers/cli-batch-run.ts runAll): a user's
// mistake is one line on stderr starting `tidings:`, with no stack frame; a success exits 0.
import assert from 'node:assert/strict';
import type { BatchResult } from './cli-batch.js';

/** One line on stderr starting `tidings:`, no stack frame, and (when given) this exit code; the line. */
export function oneLine(result: BatchResult | undefined, code?: number): string {
  assert.ok(result);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0] ?? '', /^tidings: /);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  if (code !== undefined) assert.equal(result.code, code, result.stderr);
  return lines[0] ?? '';
}

/** Exit 0; the command's stdout. */
export function ok(result: BatchResult | undefined): string {
  assert.equal(result?.code, 0, result?.stderr);
  return result?.stdout ?? '';
}
