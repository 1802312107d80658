import type { StoredEntry } from '../../model/index.js';
import { safeLinkUrl } from '../../model/index.js';

const UNITS: [number, string][] = [
  [60, 's'],
  [60, 'min'],
  [24, 'h'],
  [30, 'd'],
];

/** "just now", "5 min ago", "3 h ago", "in 2 d", or the date for anything older than a month. */
export function relativeTime(iso: string | undefined, now: Date): string {
  if (!iso) return 'never';
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return iso;
  const seconds = Math.round((now.getTime() - then) / 1000);
  let value = Math.abs(seconds);
  if (value < 45) return 'just now';
  for (const [size, unit] of UNITS) {
    if (value < size) return seconds >= 0 ? `${value} ${unit} ago` : `in ${value} ${unit}`;
    value = Math.round(value / size);
  }
  return formatDate(iso);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date as "12 Mar 2026" (UTC, so that tests and servers agree). Written out by hand: toLocaleDateString
 * builds a formatter on every call, 7 ms of each reader page's 20 entries and sidebar.
 */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** A timestamp for tooltips and tables: "2026-03-12 14:05 UTC". */
export function formatTimestamp(iso: string | undefined): string {
  if (!iso) return '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The URL when it is http(s), else undefined: feed links never become `javascript:` hrefs. */
export function safeHref(url: string | undefined): string | undefined {
  return safeLinkUrl(url);
}

/** The host of a URL, for "Post by example.com". */
export function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}

/** An entry's heading: its title, or "Post by {author or domain}" for a note (as Microsub clients show it). */
export function entryHeading(entry: StoredEntry): string {
  if (entry.title?.trim()) return entry.title.trim();
  const author = entry.authors.find((a) => a.name)?.name;
  return `Post by ${author ?? hostOf(entry.url) ?? 'unknown'}`;
}

/** Bytes as "12 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "1 entry", "3 entries". */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A length of time as "5 s", "10 min", "1.5 h", "7 d". */
export function formatDuration(seconds: number): string {
  const steps: [number, number, string][] = [
    [60, 1, 's'],
    [3600, 60, 'min'],
    [86400, 3600, 'h'],
    [Number.POSITIVE_INFINITY, 86400, 'd'],
  ];
  const [, size, unit] = steps.find(([limit]) => seconds < limit) as [number, number, string];
  const value = Math.round((seconds / size) * 10) / 10;
  return `${value} ${unit}`;
}
