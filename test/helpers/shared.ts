import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The team's shared material (conformance corpus, perf corpus), beside the repository at ../shared,
 * or where TIDINGS_SHARED_DIR points. Undefined when it is not there: tests that need it skip loudly.
 */
export const SHARED_DIR: string | undefined = (() => {
  const dir = process.env['TIDINGS_SHARED_DIR'] ?? fileURLToPath(new URL('../../../shared', import.meta.url));
  return existsSync(dir) ? dir : undefined;
})();
