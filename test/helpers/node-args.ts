import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments for `node` that run the TypeScript module at `path` (from the repository's root): its
 * JavaScript in the tree scripts/run-tests.mjs transpiled (TIDINGS_TEST_BUILD), which starts about a
 * second sooner, or the source under tsx when a test file runs on its own.
 */
export function nodeArgsFor(path: string): string[] {
  const build = process.env['TIDINGS_TEST_BUILD'];
  if (build) return [join(build, path.replace(/\.tsx?$/, '.js'))];
  return ['--import', 'tsx', join(ROOT, path)];
}

/**
 * `node ...CLI_ARGS command` runs the tidings command line, as the installed bin does: in the compiled
 * tree, bundled as dist/cli.js is (scripts/bundle.mjs, written by scripts/transpile.mjs).
 */
export const CLI_ARGS: readonly string[] = process.env['TIDINGS_TEST_BUILD']
  ? [join(process.env['TIDINGS_TEST_BUILD'], 'src', 'cli.bundle.js')]
  : nodeArgsFor('src/cli.ts');
