import { Parser } from 'htmlparser2';
import type { FetchRequest } from '../fetch/index.js';
import type { StoredFeed } from '../model/index.js';
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

/** At most this many icon requests per lookup (the site's page, when it is read, comes on top). */
export const MAX_ICON_CANDIDATES = 3;
/** The whole lookup, page and icons, ends after this: an icon is never worth a long wait. */
export const ICON_LOOKUP_MS = 15_000;

/** What a lookup needs of the poller. */
export type IconDeps = Pick<PollDeps, 'store' | 'fetch' | 'config' | 'log'>;

/** How one lookup may be stopped: `cancel` (shutdown) records nothing, the deadline records what was found. */
export interface IconLookupOptions {
  cancel?: AbortSignal;
  deadlineMs?: number;
}

/** An icon found: its type (by its bytes) and bytes. */
export type FoundIcon = { contentType: string; bytes: Uint8Array };

function requestFor(
  deps: Pick<IconDeps, 'config'>,
  url: string,
  maxBodyBytes: number,
  signal: AbortSignal,
): FetchRequest {
  return {
    url,
    timeoutMs: Math.min(deps.config.timeoutMs, ICON_TIMEOUT_MS),
    maxBodyBytes,
    allowPrivateAddresses: deps.config.allowPrivateAddresses,
    signal,
  };
}

const isHttp = (url: string) => /^https?:/i.test(url);

/**
 * Looks in order at the feed's own image/icon/logo, the site's <link rel=icon>s and /favicon.ico, at most
 * MAX_ICON_CANDIDATES of them, the last one kept for /favicon.ico (issue 22: a page with 30 icon links
 * made 30 requests of 10 s each). The site's page is read only when the feed's own image is no image.
 */
async function findIcon(
  deps: Pick<IconDeps, 'fetch' | 'config'>,
  feed: StoredFeed,
  signal: AbortSignal,
): Promise<FoundIcon | undefined> {
  const tried = new Set<string>();
  const tryUrl = async (url: string): Promise<FoundIcon | undefined> => {
    if (tried.has(url) || tried.size >= MAX_ICON_CANDIDATES || signal.aborted) return undefined;
    tried.add(url);
    const outcome = await deps.fetch(requestFor(deps, url, ICON_MAX_BYTES, signal));
    const contentType = outcome.kind === 'ok' ? sniffImageType(outcome.body) : undefined;
    return contentType && outcome.kind === 'ok' ? { contentType, bytes: outcome.body } : undefined;
  };
  if (feed.iconUrl && isHttp(feed.iconUrl)) {
    const icon = await tryUrl(feed.iconUrl);
    if (icon) return icon;
  }
  const site = feed.siteUrl ?? new URL('/', feed.url).href;
  if (!isHttp(site) || signal.aborted) return undefined;
  const page = await deps.fetch(requestFor(deps, site, PAGE_MAX_BYTES, signal));
  const links =
    page.kind === 'ok' && /html/i.test(page.contentType ?? 'text/html')
      ? pageIconUrls(new TextDecoder().decode(page.body), page.url)
      : [];
  // a site that cannot be reached (no such host, refused) has no /favicon.ico to give either
  const reachable = page.kind !== 'error' || page.status !== undefined;
  const favicon = reachable ? new URL('/favicon.ico', site).href : undefined;
  const others = [...new Set(links)].filter((url) => isHttp(url) && url !== favicon && !tried.has(url));
  const room = MAX_ICON_CANDIDATES - tried.size - (favicon === undefined || tried.has(favicon) ? 0 : 1);
  for (const url of others.slice(0, Math.max(room, 0))) {
    const icon = await tryUrl(url);
    if (icon) return icon;
  }
  return favicon === undefined ? undefined : tryUrl(favicon);
}

/** True when an icon looked for at `fetchedAt` (found or not) is not to be looked for again yet. */
export function isIconFresh(fetchedAt: string | undefined, now: Date): boolean {
  return fetchedAt !== undefined && now.getTime() - Date.parse(fetchedAt) < ICON_REFRESH_MS;
}

/**
 * Looks for a feed's icon through the poller's fetch (same SSRF guard and limits, at most ICON_MAX_BYTES)
 * and returns the first image found, or `icon: undefined` when there is none. The whole lookup ends at its
 * deadline (default ICON_LOOKUP_MS) with what it found; cancelled, it stops at once and returns undefined,
 * since it found nothing to record.
 */
export async function lookUpFeedIcon(
  deps: Pick<IconDeps, 'fetch' | 'config'>,
  feed: StoredFeed,
  options: IconLookupOptions = {},
): Promise<{ icon: FoundIcon | undefined } | undefined> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.deadlineMs ?? ICON_LOOKUP_MS);
  timer.unref();
  const { cancel } = options;
  const signal = cancel ? AbortSignal.any([cancel, deadline.signal]) : deadline.signal;
  try {
    const icon = await findIcon(deps, feed, signal);
    return cancel?.aborted ? undefined : { icon };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Looks for a feed's icon when it has none on record or the record is older than a week, and stores the
 * first image found (or that none was); cancelled, it records nothing, so it is tried again later. Never
 * throws: an icon is never worth a failed poll.
 */
export async function refreshFeedIcon(
  deps: IconDeps,
  feed: StoredFeed,
  now: Date,
  options: IconLookupOptions = {},
): Promise<void> {
  try {
    const known = await deps.store.icons.get(feed.id);
    if (isIconFresh(known?.fetchedAt, now)) return;
    const found = await lookUpFeedIcon(deps, feed, options);
    if (found) await deps.store.icons.save(feed.id, found.icon, now.toISOString());
  } catch (error) {
    deps.log.warn({ err: error, feedId: feed.id }, 'poll: looking for the feed icon failed');
  }
}
