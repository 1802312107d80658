// The CLI starts without the store, the poller, the parser or the server: each command's definition
// (src/cli/NAME-command.ts) imports its work (src/cli/NAME.ts) in its action, so that `tidings --help`, a
// mistaken option and every test that starts the CLI pay 0.1 s of CPU, not 0.5 (docs/development.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DESTINATION_KINDS_HELP, EVENT_TYPES_HELP } from '../src/cli/notify-command.js';
import { RULE_ACTIONS_HELP } from '../src/cli/rule-command.js';
import { UNFOLLOWED_KEEP_DAYS_HELP } from '../src/cli/subscribe-command.js';
import { DESTINATION_KINDS, EVENT_TYPES, RULE_ACTIONS, UNFOLLOWED_KEEP_DAYS } from '../src/store/index.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
/** The packages a module loaded at the CLI's start may import. */
const START_PACKAGES = ['commander'];

/**
 * What a module loads when it is loaded: its static imports and re-exports. `import type` is left out
 * (erased); `import()` too (loaded when it runs); `import { type A }` stays (verbatimModuleSyntax keeps it).
 */
function staticImportsOf(text: string): string[] {
  const pattern = /^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gms;
  return [...text.matchAll(pattern)].map((m) => m[1] as string);
}

/** Every source file and package the CLI loads before it runs a command, from src/cli.ts. */
function loadedAtStart(): { files: string[]; packages: string[] } {
  return loadedBy('cli.ts');
}

/** Every source file and package that loading `start` (a path under src/) loads. */
function loadedBy(start: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of staticImportsOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) packages.add(specifier);
      else visit(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    }
  };
  visit(`${SRC}${start}`);
  return { files: [...files].map((f) => relative(SRC, f)).sort(), packages: [...packages].sort() };
}

describe('the CLI at its start', () => {
  it('reads static imports and leaves out type-only and dynamic ones', () => {
    const text = [
      "import { a } from './a.js';",
      "import {\n  b,\n  type C,\n} from '../b.js';",
      "import type { D } from './d.js';",
      "import './e.js';",
      "export { f } from './f.js';",
      "export type { G } from './g.js';",
      "const h = await import('./h.js');",
    ].join('\n');
    assert.deepEqual(staticImportsOf(text), ['./a.js', '../b.js', './e.js', './f.js']);
  });

  it('loads only src/cli and commander: a command imports its work in its action', () => {
    const { files, packages } = loadedAtStart();
    assert.ok(files.includes('cli/program.ts') && files.includes('cli/subscribe-command.ts'), files.join());
    const outside = files.filter((f) => !f.startsWith('cli/') && f !== 'cli.ts');
    assert.deepEqual(outside, [], 'import these in the action of the command (see src/cli/program.ts)');
    assert.ok(!files.includes('cli/app.ts'), 'cli/app.ts opens the store: import it in the action');
    const heavy = packages.filter((p) => !p.startsWith('node:') && !START_PACKAGES.includes(p));
    assert.deepEqual(heavy, [], 'import these packages in the action of the command');
  });

  it('starts the commands that neither poll nor fetch without the poller, the parser or an HTTP client', () => {
    // cli/app.ts loads the poller only for AppOptions.poller: a third of such a command's start
    for (const work of ['token', 'user', 'password', 'api-password', 'doctor']) {
      const { files, packages } = loadedBy(`cli/${work}.ts`);
      const polling = files.filter((f) => /^(poll|parse|fetch|html)\//.test(f));
      assert.deepEqual(polling, [], `cli/${work}.ts loads these`);
      assert.ok(!packages.includes('undici') && !packages.includes('nodemailer'), packages.join());
    }
  });

  it("says in its help what the store says: the days an unfollowed feed's entries stay, kinds and events", () => {
    assert.equal(UNFOLLOWED_KEEP_DAYS_HELP, UNFOLLOWED_KEEP_DAYS);
    assert.deepEqual(DESTINATION_KINDS_HELP, [...DESTINATION_KINDS]);
    assert.deepEqual(EVENT_TYPES_HELP, [...EVENT_TYPES]);
    assert.deepEqual(RULE_ACTIONS_HELP, [...RULE_ACTIONS]);
  });
});
