#!/usr/bin/env node
// `npm run screenshots`: runs the browser tests that take screenshots, with TIDINGS_SCREENSHOTS_DIR set
// (test/browser/chromium.ts). The reader's list, entry page and sidebar, light and dark, go to
// docs/screenshots/ for the README; the rest of the web UI to test-results/screenshots/ for a look by
// eye. `npm test` takes none, so it never rewrites the tracked docs/screenshots/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = [
  { dir: 'docs/screenshots', files: ['test/browser/reader.test.ts'] },
  {
    dir: 'test-results/screenshots',
    files: ['test/browser/web.test.ts', 'test/browser/health-phone.test.ts'],
  },
];

let status = 0;
for (const { dir, files } of RUNS) {
  const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', ...files], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TIDINGS_SCREENSHOTS_DIR: `${ROOT}${dir}` },
  });
  if (run.status !== 0) status = 1;
  else console.log(`screenshots: ${files.join(', ')} -> ${dir}/`);
}
process.exit(status);
