// The import rules of docs/style.md ("Layout") and docs/architecture.md, checked on every module of
// src/: the folders are layers, front ends import only downward, and web, microsub and the sync APIs never
// import each other nor src/server, which mounts them all (what they share is in src/http, below them;
// issue 23). A new folder must be given its place here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// config.ts, log.ts and worker-thread.ts sit at the top of src/ and serve every layer but model.
const SHARED = ['config', 'log', 'worker-thread'];
// auth (API credentials, password hashes, rate limits) and reading (the apps' read rule, saved entries)
// sit below the front ends: decided once for the web UI, Microsub, Google Reader and Fever (work/sync).
const FRONT_END_DEPS = [
  'model',
  'html',
  'store',
  'poll',
  'subscriptions',
  'auth',
  'reading',
  'http',
  ...SHARED,
];

/** What each area may import besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  model: [],
  // the sanitizer and HTML to text: parse uses them, and the front ends render with them
  html: ['model'],
  parse: ['model', 'html'],
  opml: ['model', 'parse'],
  fetch: ['model'],
  store: ['model', ...SHARED],
  poll: ['model', 'fetch', 'parse', 'html', 'store', ...SHARED],
  subscriptions: ['model', 'store', 'poll', 'opml'],
  // alerts on their way out: the outbox's sender, webhooks and ntfy through fetch's SSRF guard, email
  notify: ['model', 'fetch', 'store', ...SHARED],
  auth: ['model', 'store', ...SHARED],
  // open, mark, mark all with undo, save, refresh and preview: refresh and preview go through poll
  reading: ['model', 'store', 'poll', ...SHARED],
  // what the front ends share about HTTP: body limits, request parameters, the API failure log
  http: ['model', ...SHARED],
  microsub: FRONT_END_DEPS,
  // the Alerts page adds and tests destinations as `tidings notify` does (issue 25)
  web: [...FRONT_END_DEPS, 'notify'],
  greader: FRONT_END_DEPS,
  fever: FRONT_END_DEPS,
  // what /metrics tells (issue 25): feeds by health from the store, polls through the poller's hooks
  metrics: ['model', 'store', 'poll'],
  server: [
    'web',
    'microsub',
    'greader',
    'fever',
    'http',
    'model',
    'store',
    'poll',
    'auth',
    'metrics',
    ...SHARED,
  ],
  cli: ['*'],
  // the package's entry (parseFeed) and the bin
  index: ['model', 'parse'],
  config: [],
  log: [],
  'worker-thread': ['*'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The area of a file: its folder under src/, or its name for a file at the top (cli.ts is the CLI). */
function areaOf(path: string): string {
  const parts = relative(SRC, path).split('/');
  const first = parts.length === 1 ? (parts[0] as string).replace(/\.(tsx?|js)$/, '') : (parts[0] as string);
  return first === 'cli' ? 'cli' : first;
}

/** Every relative import of a file: static, type-only, re-exports and dynamic import(). */
function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.[^']+)'/gm)].map(
    (m) => m[1] as string,
  );
  return specifiers.map((s) => resolve(dirname(path), s));
}

/** The source file an import names: its .js specifier read as the .ts or .tsx file beside it. */
function sourceOf(target: string, files: ReadonlySet<string>): string | undefined {
  const base = target.replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, target].find((path) => files.has(path));
}

/** The import graph of these files: each file and the source files it imports. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      importsOf(file).flatMap((target) => {
        const source = sourceOf(target, known);
        return source === undefined ? [] : [source];
      }),
    ]),
  );
}

/**
 * The import circles of a graph, each as the path that closes it (a -> b -> a), found by a depth-first
 * walk: an import of a file still on the walk's path closes a circle.
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const circles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (node: string): void => {
    path.push(node);
    onPath.add(node);
    for (const next of graph.get(node) ?? []) {
      if (onPath.has(next)) circles.push([...path.slice(path.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    onPath.delete(node);
    done.add(node);
  };
  for (const node of graph.keys()) if (!done.has(node)) visit(node);
  return circles;
}

/**
 * The front door an import must go through, or undefined when it may name its file directly: a file may
 * import files of its own folder and of the folders above it, but a file inside another folder only through
 * that folder's index.ts (from src/web/routes/a.tsx, src/store/feeds/feeds.ts is reached as
 * src/store/index.ts; from src/store/store.ts, as src/store/feeds/index.ts).
 */
export function frontDoorOf(importer: string, target: string): string | undefined {
  const from = dirname(importer);
  const to = dirname(target);
  const within = (folder: string, inner: string) => inner === folder || inner.startsWith(`${folder}/`);
  if (within(to, from)) return undefined;
  let common = from;
  while (!within(common, to)) common = dirname(common);
  const door = join(common, relative(common, to).split('/')[0] as string, 'index.ts');
  return door === target ? undefined : door;
}

describe('architecture', () => {
  const files = sourceFiles(SRC);

  it('finds the source files and their imports', () => {
    assert.ok(files.length > 100);
    assert.ok(importsOf(join(SRC, 'server/app.ts')).some((p) => p.endsWith('microsub/index.js')));
  });

  it('every import follows the layer rules of docs/style.md', () => {
    const broken: string[] = [];
    for (const file of files) {
      const from = areaOf(file);
      const allowed = ALLOWED[from];
      if (allowed === undefined) {
        broken.push(`${relative(SRC, file)}: the area "${from}" has no rule in test/architecture.test.ts`);
        continue;
      }
      for (const target of importsOf(file)) {
        const to = areaOf(target);
        if (to === from || allowed.includes('*') || allowed.includes(to)) continue;
        broken.push(`${relative(SRC, file)} (${from}) imports ${relative(SRC, target)} (${to})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('has web, microsub and the sync APIs import none of each other, nor the CLI', () => {
    const frontEnds = ['web', 'microsub', 'greader', 'fever'];
    for (const name of frontEnds) {
      const allowed = ALLOWED[name] ?? [];
      for (const other of [...frontEnds, 'cli'])
        if (other !== name) assert.equal(allowed.includes(other), false);
    }
  });

  it('has no front end import the server that mounts it, and http import no front end', () => {
    for (const name of ['web', 'microsub', 'greader', 'fever']) {
      assert.equal(ALLOWED[name]?.includes('server'), false, name);
      assert.equal(ALLOWED['http']?.includes(name), false, name);
    }
    assert.equal(ALLOWED['http']?.includes('server'), false);
  });

  it('has every folder of src/ an index.ts, and code in another folder import it only', () => {
    const known = new Set(files);
    const folders = new Set(
      files.map((file) => dirname(file)).filter((dir) => dir !== SRC.replace(/\/$/, '')),
    );
    const missing = [...folders].filter((dir) => !known.has(join(dir, 'index.ts')));
    assert.deepEqual(
      missing.map((dir) => relative(SRC, dir)),
      [],
    );
    const through: string[] = [];
    for (const file of files)
      for (const target of importsOf(file)) {
        const source = sourceOf(target, known);
        const door = source === undefined ? undefined : frontDoorOf(file, source);
        if (door !== undefined && source !== undefined)
          through.push(`${relative(SRC, file)} imports ${relative(SRC, source)}, not ${relative(SRC, door)}`);
      }
    assert.deepEqual(through, []);
  });

  it('finds an import that goes past a front door when there is one', () => {
    const door = (importer: string, target: string) => frontDoorOf(`/src/${importer}`, `/src/${target}`);
    assert.equal(door('web/routes/a.tsx', 'store/feeds/feeds.ts'), '/src/store/index.ts');
    assert.equal(door('web/routes/a.tsx', 'store/types.ts'), '/src/store/index.ts');
    assert.equal(door('store/store.ts', 'store/feeds/feeds.ts'), '/src/store/feeds/index.ts');
    assert.equal(door('server/app.ts', 'web/routes/index.ts'), '/src/web/index.ts');
    assert.equal(door('web/routes/a.tsx', 'store/index.ts'), undefined);
    assert.equal(door('store/feeds/feeds.ts', 'store/types.ts'), undefined);
    assert.equal(door('store/feeds/feeds.ts', 'store/feeds/icons.ts'), undefined);
    assert.equal(door('web/routes.ts', 'web/routes/index.ts'), undefined);
  });

  it('has no import circle in src/', () => {
    const circles = importCircles(importGraph(files)).map((circle) =>
      circle.map((file) => relative(SRC, file)).join(' -> '),
    );
    assert.deepEqual(circles, []);
  });

  it('finds an import circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
    ]);
    assert.deepEqual(importCircles(graph), [
      ['a', 'b', 'c', 'a'],
      ['e', 'e'],
    ]);
    assert.deepEqual(
      importCircles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
      [],
    );
  });
});
