#!/usr/bin/env node
// tsc compiles TypeScript only: copy the other files the program reads at run time (SQL migrations,
// web static files) from src/ to dist/, keeping their paths.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files under src/ that the program reads at run time besides its code (also scripts/transpile.mjs's). */
export const ASSET = /\.(sql|css|js|svg|ico|png|txt)$/;
const root = fileURLToPath(new URL('..', import.meta.url));

function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (ASSET.test(name) && !/\.tsx?$/.test(name)) {
      const target = join(root, 'dist', relative(join(root, 'src'), path));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(path, target);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) copyAssets(join(root, 'src'));
