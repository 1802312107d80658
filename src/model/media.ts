import type { Media } from './feed.js';

/** One media object of an entry (Media RSS media:content, or an enclosure), as stored and shown. */
export interface MediaItem {
  url: string;
  type?: string;
  /** image, audio, video, document or executable (Media RSS `medium`). */
  medium?: string;
  durationSeconds?: number;
  bytes?: number;
}

/** What an entry's Media RSS says, kept in the stored entry's `extra.media` (YouTube, podcasts). */
export interface EntryMedia {
  thumbnail?: string;
  description?: string;
  items: MediaItem[];
}

function positiveNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** The parsed Media RSS of an entry in the form the store keeps; undefined when it says nothing useful. */
export function toEntryMedia(media: Media | undefined): EntryMedia | undefined {
  if (!media) return undefined;
  const items: MediaItem[] = [];
  for (const content of media.content ?? []) {
    if (!content.url) continue;
    const item: MediaItem = { url: content.url };
    if (content.type) item.type = content.type;
    if (content.medium) item.medium = content.medium;
    const duration = positiveNumber(content.duration);
    if (duration !== undefined) item.durationSeconds = duration;
    const bytes = positiveNumber(content.fileSize);
    if (bytes !== undefined) item.bytes = bytes;
    items.push(item);
  }
  const out: EntryMedia = { items };
  const thumbnail = media.thumbnails?.[0]?.url;
  if (thumbnail) out.thumbnail = thumbnail;
  if (media.description) out.description = media.description;
  return out.thumbnail || out.description || items.length > 0 ? out : undefined;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function itemOf(value: unknown): MediaItem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const url = stringField(record['url']);
  if (!url) return undefined;
  const item: MediaItem = { url };
  const type = stringField(record['type']);
  const medium = stringField(record['medium']);
  const duration = positiveNumber(record['durationSeconds']);
  const bytes = positiveNumber(record['bytes']);
  if (type) item.type = type;
  if (medium) item.medium = medium;
  if (duration !== undefined) item.durationSeconds = duration;
  if (bytes !== undefined) item.bytes = bytes;
  return item;
}

/** The media a stored entry's `extra` holds (JSON read back: checked field by field). */
export function entryMediaOf(extra: Record<string, unknown>): EntryMedia | undefined {
  const value = extra['media'];
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const items = Array.isArray(record['items']) ? record['items'].flatMap((v) => itemOf(v) ?? []) : [];
  const out: EntryMedia = { items };
  const thumbnail = stringField(record['thumbnail']);
  const description = stringField(record['description']);
  if (thumbnail) out.thumbnail = thumbnail;
  if (description) out.description = description;
  return out;
}

const EXTENSIONS: Record<string, 'image' | 'video' | 'audio'> = {
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  webp: 'image',
  avif: 'image',
  mp4: 'video',
  m4v: 'video',
  webm: 'video',
  mov: 'video',
  mp3: 'audio',
  m4a: 'audio',
  aac: 'audio',
  ogg: 'audio',
  oga: 'audio',
  opus: 'audio',
  wav: 'audio',
  flac: 'audio',
};

function extensionOf(url: string): string | undefined {
  return /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
}

// Sites whose URLs are pages with a player of their own, not media files: a feed that gives
// youtube.com/embed/ID as its video (medium="video", even type="video/mp4") got a <video> that
// played nothing (issue 22). Their files, where they serve any, name their extension
// (player.vimeo.com/external/1.hd.mp4), and stay media.
const PLAYER_SITES = new Set([
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'player.vimeo.com',
  'dailymotion.com',
  'dai.ly',
  'twitch.tv',
  'player.twitch.tv',
  'tiktok.com',
  'soundcloud.com',
  'open.spotify.com',
  'podcasts.apple.com',
]);

const PAGE_EXTENSIONS = new Set(['html', 'htm', 'php', 'asp', 'aspx', 'jsp']);

/** True for the URL of a web page with a player (YouTube, Vimeo, a .html page) rather than of a media file. */
export function isPlayerPage(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const extension = extensionOf(parsed.pathname);
  if (extension !== undefined && PAGE_EXTENSIONS.has(extension)) return true;
  const host = parsed.hostname.toLowerCase().replace(/^(www|m)\./, '');
  return PLAYER_SITES.has(host) && (extension === undefined || !(extension in EXTENSIONS));
}

/**
 * image, audio or video by MIME type, Media RSS medium, else the URL's file extension; nothing for a page
 * with a player of its own (isPlayerPage), whatever the feed says it is.
 */
export function mediaKindOf(item: {
  url?: string;
  href?: string;
  type?: string | undefined;
  medium?: string | undefined;
}): 'image' | 'audio' | 'video' | undefined {
  if (isPlayerPage(item.url ?? item.href ?? '')) return undefined;
  const major = item.type?.split('/')[0]?.trim().toLowerCase();
  if (major === 'image' || major === 'audio' || major === 'video') return major;
  // any other type (YouTube's application/x-shockwave-flash player page) is nothing a browser plays;
  // octet-stream says nothing (podcasts use it): the extension decides then
  if (item.type && !/octet-stream/i.test(item.type)) return undefined;
  const medium = item.medium?.toLowerCase();
  if (medium === 'image' || medium === 'audio' || medium === 'video') return medium;
  const extension = extensionOf(item.url ?? item.href ?? '');
  return extension ? EXTENSIONS[extension] : undefined;
}

/**
 * A file size worth showing: feeds that do not know one write a placeholder (`length="0"`, "1", "-1";
 * "1 B" was shown), and no enclosure a reader would want is under 1 KiB.
 */
export function plausibleBytes(value: string | number | undefined): number | undefined {
  const n = typeof value === 'number' ? value : value === undefined ? Number.NaN : Number(value);
  return Number.isFinite(n) && n >= 1024 ? n : undefined;
}

// Query parameters that only choose a picture's size or encoding (WordPress' Photon, imgix, the Guardian's
// `width=140&quality=85&auto=format&fit=max&s=SIGNATURE`, whose signature changes with them).
const SIZE_PARAMETERS = new Set([
  'w',
  'h',
  'width',
  'height',
  'resize',
  'fit',
  'quality',
  'q',
  'auto',
  'crop',
  'dpr',
  'format',
  'fm',
  's',
  'size',
  'ssl',
  'strip',
]);

/**
 * What two URLs of one picture at different sizes have in common (issue 22: "the same image at two sizes
 * shows twice"): the host and path without WordPress' `-1024x683` and `@2x` size marks, and the query
 * without the parameters that only choose a size. A URL that does not parse is its own key.
 */
export function pictureKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const path = parsed.pathname.replace(/(?:-\d{2,5}x\d{2,5}|@\dx)(\.[a-z0-9]+)$/i, '$1');
  const kept = [...parsed.searchParams].filter(([name]) => !SIZE_PARAMETERS.has(name.toLowerCase()));
  const query = kept.length > 0 ? `?${new URLSearchParams(kept)}` : '';
  return `${parsed.hostname.toLowerCase()}${path}${query}`;
}

/**
 * How wide a picture's URL says it is (`?width=460`, `?w=`, `?resize=460,300`, `-460x300.jpg`), or
 * Infinity when it says nothing: among URLs of one picture, that one is the original.
 */
export function pictureWidthOf(url: string): number {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  for (const name of ['width', 'w', 'resize', 'size']) {
    const value = parsed.searchParams.get(name);
    const width = value ? Number.parseInt(value, 10) : Number.NaN;
    if (width > 0) return width;
  }
  const marked = /-(\d{2,5})x\d{2,5}\.[a-z0-9]+$/i.exec(parsed.pathname);
  return marked ? Number(marked[1]) : Number.POSITIVE_INFINITY;
}

/** "1:02:03", "4:05": a duration in seconds as a clock; also reads "HH:MM:SS" strings (iTunes). */
export function formatDuration(value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let seconds: number;
  if (typeof value === 'number') seconds = value;
  else if (/^\d+(\.\d+)?$/.test(value.trim())) seconds = Number(value.trim());
  else if (/^\d{1,3}(:\d{1,2}){1,2}$/.test(value.trim()))
    seconds = value
      .trim()
      .split(':')
      .reduce((sum, part) => sum * 60 + Number(part), 0);
  else return undefined;
  if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
