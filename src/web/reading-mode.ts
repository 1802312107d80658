import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** How timelines show entries: the river (each entry in full) or a list of titles. */
export type ReadingMode = 'river' | 'list';

const MODE_COOKIE = 'tidings_mode';
const YEAR_SECONDS = 365 * 24 * 3600;

/** The reading mode this browser chose; the river until it chooses. */
export function readingModeOf(c: Context): ReadingMode {
  return getCookie(c, MODE_COOKIE) === 'list' ? 'list' : 'river';
}

/** Remembers the reading mode in a cookie (a preference, not a secret: unsigned). */
export function rememberReadingMode(c: Context, mode: ReadingMode): void {
  setCookie(c, MODE_COOKIE, mode, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: YEAR_SECONDS,
  });
}

/** 'river' or 'list' from a form field; undefined for anything else. */
export function parseReadingMode(value: string): ReadingMode | undefined {
  return value === 'river' || value === 'list' ? value : undefined;
}
