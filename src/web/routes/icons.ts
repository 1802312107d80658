import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import type { WebEnv } from '../env.js';
import { idOf } from '../forms.js';
import { depsOf } from '../render.js';

// Icons change rarely (looked for again weekly): a day in the browser's cache, then a 304 by ETag.
const ICON_CACHE = 'private, max-age=86400';

/**
 * GET /icons/:feedId: the feed's icon as the poller stored it (only images it recognized by their bytes,
 * never SVG), from tidings' own origin, so that reading never makes the browser ask a feed's site.
 */
export function registerIcons(app: Hono<WebEnv>): void {
  app.get('/icons/:feedId', async (c) => {
    const feedId = idOf(c.req.param('feedId'));
    const { store } = depsOf(c);
    // icons are the instance's, one per feed: only a feed the user follows shows its icon to them
    const followed = feedId !== undefined && (await store.channels.follows(feedId)) !== undefined;
    const icon = feedId && followed ? await store.icons.get(feedId) : undefined;
    if (!icon || icon.bytes.length === 0) return c.text('web: this feed has no icon', 404);
    const etag = `"${createHash('sha256').update(icon.bytes).digest('hex').slice(0, 20)}"`;
    c.header('cache-control', ICON_CACHE);
    c.header('etag', etag);
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    c.header('content-type', icon.contentType);
    return c.body(Uint8Array.from(icon.bytes));
  });
}
