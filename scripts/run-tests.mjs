#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node:test (Node 20's --test does not expand globs).
// Extra arguments are passed to node --test, e.g. `npm run test:unit -- --test-name-pattern=dates`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, out);
    else if (/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('-'));
const files = (only.length > 0 ? only : [...findTests('src'), ...findTests('test')]).sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...flags, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
