import { execFile } from 'node:child_process';
import type { BatchCase, BatchResult } from './cli-batch.js';
import { nodeArgsFor } from './node-args.js';

/**
 * Runs command lines one after the other in one CLI process (cli-batch.ts, through runCommand as
 * src/cli.ts does); their results in order. One start of the CLI for all of them.
 */
export function runAll(cases: BatchCase[]): Promise<BatchResult[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      nodeArgsFor('test/helpers/cli-batch.ts'),
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`cli-batch failed: ${stderr}`));
        else resolve(JSON.parse(stdout) as BatchResult[]);
      },
    );
    child.stdin?.end(JSON.stringify(cases));
  });
}
