// IconLookups.close() as a process ending on SIGTERM runs it: the process must wait for close() to end.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';

// The module under test, compiled (tests from .tmp/build) or as source under tsx.
const moduleUrl = new URL(
  `./icon-lookups${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

// A lookup whose fetch never settles and holds nothing open (an aborted request waiting on a connection
// already gone): close() gives it up after its grace period, and the process goes on to its end.
const SCRIPT = `
const { IconLookups } = await import(${JSON.stringify(moduleUrl.href)});
const deps = {
  now: () => new Date(),
  log: { warn() {}, info() {}, debug() {}, error() {} },
  config: { timeoutMs: 10000, allowPrivateAddresses: false },
  fetch: () => new Promise(() => {}),
  store: { icons: { times: async () => new Map(), saveMany: async () => {} } },
};
const lookups = new IconLookups(deps, { concurrency: 1 });
lookups.request({ id: 1, url: 'https://site.example/feed.xml', siteUrl: 'https://site.example/' });
await new Promise((resolve) => setTimeout(resolve, 50));
const started = Date.now();
await lookups.close();
process.stdout.write('closed after ' + (Date.now() - started) + ' ms\\n');
`;

describe('icon lookups at shutdown', () => {
  it('keeps the process alive until close() has given up the lookups it cancelled', async () => {
    const args = [
      ...(moduleUrl.pathname.endsWith('.ts') ? ['--import', 'tsx'] : []),
      '--input-type=module',
      '-e',
      SCRIPT,
    ];
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    // without a timer holding it, the process ended mid-close: exit code 13, an unsettled await
    assert.equal(run.code, 0, run.stderr);
    const waited = Number(/closed after (\d+) ms/.exec(run.stdout)?.[1]);
    assert.ok(waited >= 150 && waited < 5_000, run.stdout);
  });
});
