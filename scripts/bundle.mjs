#!/usr/bin/env node
// Bundles the command line into one file (npm run build: dist/cli.js, in place of tsc's). A process that
// loaded tsc's 555 modules (263 of them Kysely's) spent 0.45 s of CPU before its first poll, 0.2 s from
// one file: every worker and `poll --once` pays it (issue 22: two PostgreSQL workers against one SQLite
// process). The modules tsc wrote stay beside it: the worker threads, `dist/index.js` and the tests use them.
//
// Three rules keep the bundle behaving like the modules it holds:
// - `import.meta.url` in each module becomes that module's own URL, relative to the bundle, so that
//   migrations, web static files, package.json and the worker threads' modules are found where they are.
// - better-sqlite3 (a native addon) and pg-native (optional, absent) stay packages loaded at run time, as
//   do the packages the parser loads with require() on first use (parse/lazy-imports.ts).
// - `require` exists in the bundle (createRequire), for the CommonJS packages it holds.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The bundle's first line after the #! line: a bundle is never bundled again. */
export const BUNDLE_MARK = '// tidings command line, bundled by scripts/bundle.mjs';

/**
 * Bundles the compiled module `entry` (with its compiled modules beside it) into `outfile`, which must be
 * in the same folder as `entry`. Returns the bundle's text; writes it only when `write` is true.
 */
export async function bundleCli({ entry, outfile, sourcemap = false, write = true }) {
  if (dirname(entry) !== dirname(outfile)) throw new Error('bundle: the bundle goes beside its entry');
  if ((await readFile(entry, 'utf8')).slice(0, 200).includes(BUNDLE_MARK))
    throw new Error(`bundle: ${relative(ROOT, entry)} is a bundle already; compile again first`);
  const here = dirname(outfile);
  const ownUrl = {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const own = `./${relative(here, args.path)}`;
        return {
          contents: text.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(own)}, import.meta.url).href`,
          ),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    outfile,
    sourcemap: sourcemap ? 'linked' : false,
    external: ['better-sqlite3', 'pg-native'],
    banner: {
      js: `${BUNDLE_MARK}\nimport { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);`,
    },
    plugins: [ownUrl],
    logLevel: 'silent',
  });
  let code = '';
  for (const file of result.outputFiles) {
    if (file.path === outfile) code = file.text;
    if (!write) continue;
    // write and rename, so that a process starting meanwhile never reads half a file
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents, { mode: 0o755 });
    await rename(temporary, file.path);
  }
  return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cli = join(ROOT, 'dist', 'cli.js');
  try {
    await bundleCli({ entry: cli, outfile: cli, sourcemap: true });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
