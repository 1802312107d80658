#!/usr/bin/env node
// Transpiles src/ and test/ to JavaScript in .tmp/build/ with esbuild, keeping their paths, so that the
// tests run as plain JavaScript: under tsx every test process compiled its TypeScript again on load. No
// type check here: `tsc --noEmit` does that, beside the tests (scripts/test.mjs). Rewrites only the files
// whose output changed and deletes outputs whose source is gone; a full pass takes about a second.
//
// Two rules keep the compiled tree behaving like the sources:
// - src/ runs as dist/ does: its assets (SQL migrations, web static files) are copied beside it and
//   package.json one folder above src/, so `new URL('./x', import.meta.url)` finds them.
// - Files under test/ see their source's URL as `import.meta.url`: fixtures, README.md, ../shared and the
//   sources the architecture test reads stay where they are, compiled or not.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { bundleCli } from './bundle.mjs';
import { ASSET } from './copy-assets.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the compiled tree goes (ignored by git through .tmp/). */
export const BUILD_DIR = join(ROOT, '.tmp', 'build');

const TSCONFIG = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function writeIfChanged(path, content, written) {
  written.add(path);
  try {
    if (readFileSync(path).equals(Buffer.from(content))) return false;
  } catch {}
  mkdirSync(dirname(path), { recursive: true });
  // write and rename, so that a test process reading the tree never sees half a file
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
  return true;
}

async function compile(path, written) {
  const rel = relative(ROOT, path);
  let source = readFileSync(path, 'utf8');
  if (rel.startsWith('test/'))
    source = source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href));
  const { code } = await transform(source, {
    loader: path.endsWith('.tsx') ? 'tsx' : 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
    tsconfigRaw: { compilerOptions: TSCONFIG.compilerOptions },
  });
  return writeIfChanged(join(BUILD_DIR, rel.replace(/\.tsx?$/, '.js')), code, written);
}

/** Brings .tmp/build/ up to date with src/ and test/; returns how many files it (re)wrote. */
export async function transpile() {
  const written = new Set();
  const sources = [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'test'))];
  const sourcesTs = sources.filter((path) => /\.tsx?$/.test(path));
  const compiled = await Promise.all(sourcesTs.map((path) => compile(path, written)));
  let count = compiled.filter(Boolean).length;
  for (const path of sources.filter((p) => ASSET.test(p) && p.startsWith(join(ROOT, 'src')))) {
    if (writeIfChanged(join(BUILD_DIR, relative(ROOT, path)), readFileSync(path), written)) count++;
  }
  if (writeIfChanged(join(BUILD_DIR, 'package.json'), readFileSync(join(ROOT, 'package.json')), written))
    count++;
  const bundle = join(BUILD_DIR, 'src', 'cli.bundle.js');
  written.add(bundle);
  let srcRemoved = false;
  for (const dir of ['src', 'test']) {
    let outputs = [];
    try {
      outputs = walk(join(BUILD_DIR, dir));
    } catch {}
    for (const path of outputs) {
      if (written.has(path)) continue;
      rmSync(path);
      if (dir === 'src') srcRemoved = true;
    }
  }
  // the command line the tests start is bundled as dist/cli.js is (scripts/bundle.mjs), again only when
  // a module under src/ changed or went
  const srcChanged = compiled.some((changed, at) => changed && sourcesTs[at]?.startsWith(join(ROOT, 'src')));
  if (srcChanged || srcRemoved || !existsSync(bundle)) {
    const code = await bundleCli({ entry: join(BUILD_DIR, 'src', 'cli.js'), outfile: bundle, write: false });
    if (writeIfChanged(bundle, code, written)) count++;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const count = await transpile();
  console.log(`transpile: ${count} files written in ${Math.round(performance.now() - started)} ms`);
}
