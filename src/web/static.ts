import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import type { WebEnv } from './env.js';

const TYPES: Record<string, string> = {
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
  'icon-192.png': 'image/png',
  'icon-512.png': 'image/png',
};

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
  version: string;
}

// A few small files: read once at start. The build copies them next to the compiled code (scripts/copy-assets.mjs).
const ASSETS = new Map<string, Asset>(
  Object.entries(TYPES).map(([name, type]) => {
    const body = Uint8Array.from(readFileSync(new URL(`./static/${name}`, import.meta.url)));
    const version = createHash('sha256').update(body).digest('hex').slice(0, 10);
    return [name, { body, type, version }];
  }),
);

/** The URL of a static file, with its content hash so that browsers may cache it for good. */
export function assetPath(name: string): string {
  const asset = ASSETS.get(name);
  return asset ? `/static/${name}?v=${asset.version}` : `/static/${name}`;
}

/** The theme colour of the manifest and the browser's toolbar: the icon's blue. */
export const THEME_COLOR = '#2458b3';

/** The web app manifest: installs the reader on a phone's home screen (opens at All unread). */
function manifest(): string {
  return JSON.stringify({
    name: 'tidings',
    short_name: 'tidings',
    description: 'A feed reader that tells you precisely when something is wrong.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#fbfaf7',
    theme_color: THEME_COLOR,
    icons: [
      { src: assetPath('icon-192.png'), sizes: '192x192', type: 'image/png' },
      { src: assetPath('icon-512.png'), sizes: '512x512', type: 'image/png' },
      { src: assetPath('icon-512.png'), sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: assetPath('icon.svg'), sizes: 'any', type: 'image/svg+xml' },
    ],
  });
}

/** Serves /static/NAME from memory (other names go on to the web UI's 404 page), and /manifest.webmanifest (both before sign-in: browsers fetch them without cookies). */
export function registerStatic(app: Hono<WebEnv>): void {
  app.get('/manifest.webmanifest', (c) => {
    c.header('content-type', 'application/manifest+json; charset=utf-8');
    c.header('cache-control', 'public, max-age=3600');
    return c.body(manifest());
  });
  app.get('/static/:name', async (c, next) => {
    const asset = ASSETS.get(c.req.param('name'));
    if (!asset) return next();
    const versioned = c.req.query('v') === asset.version;
    c.header('content-type', asset.type);
    c.header('cache-control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    return c.body(asset.body);
  });
}
