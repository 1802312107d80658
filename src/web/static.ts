import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import type { WebEnv } from './env.js';

const TYPES: Record<string, string> = {
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

interface Asset {
  body: string;
  type: string;
  version: string;
}

// Three small files: read once at start. The build copies them next to the compiled code (scripts/copy-assets.mjs).
const ASSETS = new Map<string, Asset>(
  Object.entries(TYPES).map(([name, type]) => {
    const body = readFileSync(new URL(`./static/${name}`, import.meta.url), 'utf8');
    const version = createHash('sha256').update(body).digest('hex').slice(0, 10);
    return [name, { body, type, version }];
  }),
);

/** The URL of a static file, with its content hash so that browsers may cache it for good. */
export function assetPath(name: string): string {
  const asset = ASSETS.get(name);
  return asset ? `/static/${name}?v=${asset.version}` : `/static/${name}`;
}

/** Serves /static/NAME from memory; other names go on to the web UI's 404 page. */
export function registerStatic(app: Hono<WebEnv>): void {
  app.get('/static/:name', async (c, next) => {
    const asset = ASSETS.get(c.req.param('name'));
    if (!asset) return next();
    const versioned = c.req.query('v') === asset.version;
    c.header('content-type', asset.type);
    c.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    return c.body(asset.body);
  });
}
