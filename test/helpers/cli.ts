import { execFile } from 'node:child_process';
import { CLI_ARGS } from './node-args.js';

/**
 * Runs the `tidings` command line (compiled, or from src/ under tsx: node-args.ts) with extra environment variables, and `input` on
 * its stdin when given. Asynchronous: the test's own HTTP servers must keep answering while it runs.
 */
export function tidings(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...CLI_ARGS, ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
