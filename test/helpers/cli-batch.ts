// Runs many command lines of the CLI in one process (runCommand, what src/cli.ts runs), one after the
// other, each with its own environment variables and stdin, and prints their exit codes, stdout and stderr
// as one JSON array. Starting the CLI under tsx costs about a second; a test that walks every error of
// every command pays it once. Its input is the JSON array of cases on stdin.
import { Readable } from 'node:stream';
import { runCommand } from '../../src/cli/program.js';

export interface BatchCase {
  args: string[];
  env?: Record<string, string>;
  input?: string;
}

export interface BatchResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function runOne(one: BatchCase, write: typeof process.stdout.write): Promise<BatchResult> {
  const out = { stdout: '', stderr: '' };
  const savedEnv = Object.fromEntries(Object.keys(one.env ?? {}).map((k) => [k, process.env[k]]));
  Object.assign(process.env, one.env ?? {});
  Object.defineProperty(process, 'stdin', {
    value: Readable.from([Buffer.from(one.input ?? '')]),
    configurable: true,
  });
  const capture = (key: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array) => {
      out[key] += String(chunk);
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  try {
    const end = await runCommand(['node', 'tidings', ...one.args]);
    return { code: end.exitCode, ...out };
  } finally {
    process.stdout.write = write;
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    process.exitCode = undefined;
  }
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const cases = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BatchCase[];
const stdoutWrite = process.stdout.write.bind(process.stdout);
const stderrWrite = process.stderr.write.bind(process.stderr);
const results: BatchResult[] = [];
for (const one of cases) {
  results.push(await runOne(one, stdoutWrite));
  process.stderr.write = stderrWrite;
}
stdoutWrite(`${JSON.stringify(results)}\n`);
process.exit(0);
