import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on the module beside the caller (`new URL('./x.js', import.meta.url)`). Run
 * from src/ (tests and the CLI under tsx) the module is the .ts file: Node 20 ignores `--import tsx` in
 * a worker's execArgv, so the worker registers tsx itself before loading it.
 */
export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const code = `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** The module `name` (without extension) beside `base`, as .ts when `base` is a .ts file. */
export function siblingModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}
