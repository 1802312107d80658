import { Parser } from 'htmlparser2';
import type { FetchRequest } from '../fetch/types.js';
import type { StoredFeed } from '../model/stored.js';
import type { PollDeps } from './deps.js';

/** An icon is small: anything larger is no icon (issue 16: "size-capped"). */
export const ICON_MAX_BYTES = 100 * 1024;
/** The site's page is read only for its <link rel=icon>. */
const PAGE_MAX_BYTES = 512 * 1024;
/** Icons are looked for again after a week (found or not). */
export const ICON_REFRESH_MS = 7 * 24 * 3600 * 1000;
const ICON_TIMEOUT_MS = 10_000;

/**
 * The image type of these bytes by their signature (PNG, GIF, JPEG, ICO, WebP), whatever the server
 * said; undefined for anything else, SVG included (it can carry script; we do not sanitize it).
 */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x00, 0x00, 0x01, 0x00) && bytes.length > 6) return 'image/x-icon';
  const text = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length > 12 && text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** The icon URLs a page's <link rel="icon" / "shortcut icon" / "apple-touch-icon"> name, resolved. */
export function pageIconUrls(html: string, baseUrl: string): string[] {
  const urls: string[] = [];
  const parser = new Parser({
    onopentag(name, attrs) {
      if (name !== 'link') return;
      const rels = (attrs['rel'] ?? '').toLowerCase().split(/\s+/);
      if (!rels.includes('icon') && !rels.includes('apple-touch-icon')) return;
      if (/svg/i.test(attrs['type'] ?? '') || !attrs['href']) return;
      try {
        urls.push(new URL(attrs['href'], baseUrl).href);
      } catch {
        // an href that is no URL names nothing
      }
    },
  });
  parser.end(html);
  return urls;
}

function requestFor(deps: PollDeps, url: string, maxBodyBytes: number): FetchRequest {
  return {
    url,
    timeoutMs: Math.min(deps.config.timeoutMs, ICON_TIMEOUT_MS),
    maxBodyBytes,
    allowPrivateAddresses: deps.config.allowPrivateAddresses,
  };
}

/** Where to look, in order: the feed's own image/icon/logo, the site's <link rel=icon>s, /favicon.ico. */
async function candidates(deps: PollDeps, feed: StoredFeed): Promise<string[]> {
  const urls: string[] = [];
  if (feed.iconUrl) urls.push(feed.iconUrl);
  const site = feed.siteUrl ?? new URL('/', feed.url).href;
  if (/^https?:/i.test(site)) {
    const page = await deps.fetch(requestFor(deps, site, PAGE_MAX_BYTES));
    if (page.kind === 'ok' && /html/i.test(page.contentType ?? 'text/html'))
      urls.push(...pageIconUrls(new TextDecoder().decode(page.body), page.url));
    // a site that cannot be reached (no such host, refused) has no /favicon.ico to give either
    if (page.kind !== 'error' || page.status !== undefined) urls.push(new URL('/favicon.ico', site).href);
  }
  return [...new Set(urls)].filter((url) => /^https?:/i.test(url));
}

/**
 * Looks for a feed's icon when it has none on record or the record is older than a week, through the
 * poller's fetch (same SSRF guard and limits, at most ICON_MAX_BYTES), and stores the first image found
 * (or that none was). Never throws: an icon is never worth a failed poll.
 */
export async function refreshFeedIcon(deps: PollDeps, feed: StoredFeed, now: Date): Promise<void> {
  try {
    const known = await deps.store.feedIcon(feed.id);
    if (known && now.getTime() - Date.parse(known.fetchedAt) < ICON_REFRESH_MS) return;
    for (const url of await candidates(deps, feed)) {
      const outcome = await deps.fetch(requestFor(deps, url, ICON_MAX_BYTES));
      if (outcome.kind !== 'ok') continue;
      const contentType = sniffImageType(outcome.body);
      if (!contentType) continue;
      await deps.store.saveFeedIcon(feed.id, { contentType, bytes: outcome.body }, now.toISOString());
      return;
    }
    await deps.store.saveFeedIcon(feed.id, undefined, now.toISOString());
  } catch (error) {
    deps.log.warn({ err: error, feedId: feed.id }, 'poll: looking for the feed icon failed');
  }
}
