import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { type FeedIconUrl, requestOrigin } from '../http/index.js';
import type { Store } from '../store/index.js';

// Feed icons for the apps, from tidings' own origin (issue 22): Google Reader's `iconUrl` and Microsub's
// `photo` pointed at the publisher's site, so every app asked it, against the README's promise that
// reading never does. The web UI serves stored icons at /icons/ID behind its session; the apps have
// none, so they get a signed URL, /feed-icons/ID/SIGNATURE: an HMAC of the feed id under a secret kept
// in the settings. Anyone holding the URL may load the icon (apps load images without credentials),
// and nobody can list which feeds tidings follows by trying ids. A feed without a stored icon gets no URL.

/** Where the signed icon URLs live; mounted by server/app.ts. */
export const FEED_ICONS_PATH = '/feed-icons';

/** What signing and serving the icons takes. */
interface FeedIconDeps {
  store: Store;
  /** The clock (tests inject one). */
  now: () => Date;
}

const SECRET_SETTING = 'feed_icons.url_secret';
/** The feeds with icons are read again after this long: the poller finds icons weekly. */
const KNOWN_ICONS_MS = 60_000;
const ICON_CACHE = 'private, max-age=86400';

interface IconKeys {
  secret: Promise<string>;
  withIcons?: { feedIds: Promise<Set<number>>; readAtMs: number } | undefined;
}

const keysByStore = new WeakMap<Store, IconKeys>();

function keysOf(store: Store): IconKeys {
  let keys = keysByStore.get(store);
  if (keys === undefined) {
    keys = { secret: signingSecret(store) };
    keysByStore.set(store, keys);
  }
  return keys;
}

/** The signing secret: read from the settings, created on first use (as the web UI's session secret). */
async function signingSecret(store: Store): Promise<string> {
  const known = await store.accounts.getSetting(SECRET_SETTING);
  if (known) return known;
  // another process may be creating it too: the first one stored holds for both
  return store.accounts.settingOnce(SECRET_SETTING, randomBytes(32).toString('base64url'));
}

function signatureOf(secret: string, feedId: number): string {
  return createHmac('sha256', secret).update(`feed-icon:${feedId}`).digest('base64url').slice(0, 22);
}

/** The icon URLs of this request: absolute, on the origin the client used, for feeds with a stored icon. */
export async function feedIconUrls(deps: FeedIconDeps, c: Context): Promise<FeedIconUrl> {
  const keys = keysOf(deps.store);
  const nowMs = deps.now().getTime();
  if (keys.withIcons === undefined || Math.abs(nowMs - keys.withIcons.readAtMs) > KNOWN_ICONS_MS) {
    const feedIds = deps.store.icons.feedIds().then((ids) => new Set(ids));
    keys.withIcons = { feedIds, readAtMs: nowMs };
    feedIds.catch(() => {
      keys.withIcons = undefined;
    });
  }
  const [secret, withIcons] = await Promise.all([keys.secret, keys.withIcons.feedIds]);
  const origin = requestOrigin(c);
  return (feedId) =>
    withIcons.has(feedId)
      ? `${origin}${FEED_ICONS_PATH}/${feedId}/${signatureOf(secret, feedId)}`
      : undefined;
}

/** GET /feed-icons/:feedId/:signature: the stored icon, without a session; 404 for a wrong signature. */
export function feedIconRoutes(deps: FeedIconDeps): Hono {
  const app = new Hono();
  app.get('/:feedId/:signature', async (c) => {
    const feedId = /^[1-9]\d{0,14}$/.test(c.req.param('feedId')) ? Number(c.req.param('feedId')) : 0;
    const given = Buffer.from(c.req.param('signature'));
    const wanted = Buffer.from(feedId > 0 ? signatureOf(await keysOf(deps.store).secret, feedId) : '');
    const signed = feedId > 0 && given.length === wanted.length && timingSafeEqual(given, wanted);
    const icon = signed ? await deps.store.icons.get(feedId) : undefined;
    if (!icon || icon.bytes.length === 0 || icon.contentType === '') return c.text('no such icon', 404);
    const etag = `"${createHash('sha256').update(icon.bytes).digest('hex').slice(0, 20)}"`;
    c.header('cache-control', ICON_CACHE);
    c.header('etag', etag);
    c.header('x-content-type-options', 'nosniff');
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    c.header('content-type', icon.contentType);
    return c.body(Uint8Array.from(icon.bytes));
  });
  app.all('*', (c) => c.text('no such icon', 404));
  return app;
}
