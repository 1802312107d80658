import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What the corpus-based tests read from the shared folder. A folder without all of them (an empty
// TIDINGS_SHARED_DIR, a half copy) counts as absent, so that tests skip instead of failing with ENOENT.
const EXPECTED = ['conformance/feedparser', 'perf/corpus', 'perf/feedfarm.mjs'];

const WHERE = process.env['TIDINGS_SHARED_DIR'] || fileURLToPath(new URL('../../../shared', import.meta.url));

/** True under CI=true (or any CI value but "0"/"false"): there, a missing corpus is an error, not a skip. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env['CI'] ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

function findShared(): string | undefined {
  const missing = EXPECTED.filter((path) => !existsSync(join(WHERE, path)));
  if (missing.length === 0) return WHERE;
  if (isCi())
    throw new Error(
      `shared: ${WHERE} lacks ${missing.join(', ')}; under CI the corpus tests must run, not skip (set TIDINGS_SHARED_DIR)`,
    );
  return undefined;
}

/**
 * The team's shared material (conformance corpus, perf corpus, feed farm), beside the repository at
 * ../shared or where TIDINGS_SHARED_DIR points. Undefined when it is not there (tests that need it skip
 * with SHARED_SKIP); under CI=true importing this module throws instead, so that CI cannot pass without it.
 */
export const SHARED_DIR: string | undefined = findShared();

/** The one-line reason a test that needs SHARED_DIR skips; undefined when it can run. */
export const SHARED_SKIP: string | undefined =
  SHARED_DIR === undefined
    ? `no shared corpora in ${WHERE} (set TIDINGS_SHARED_DIR to a copy of ../shared)`
    : undefined;
