import type { Context } from 'hono';
import { ClientError } from './client-error.js';

/**
 * The parsed form of a POST (Hono caches it, so the CSRF check and the handler share one parse). A body
 * that does not parse as its content type says (a multipart body without its boundary) is the client's
 * mistake: a ClientError 400, not the "Failed to parse body as FormData" 500 it used to be.
 */
export async function formOf(c: Context): Promise<Record<string, string | File | (string | File)[]>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return {};
  try {
    return await c.req.parseBody({ all: true });
  } catch (error) {
    throw new ClientError(400, 'web: the form could not be read: its body does not match its content type', {
      cause: error,
    });
  }
}

/** A text field of a form, trimmed; '' when absent. */
export async function field(c: Context, name: string): Promise<string> {
  const value = (await formOf(c))[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim() : '';
}

/** A password field as typed ('' when absent): not trimmed, since spaces may be part of it. */
export async function passwordField(c: Context, name: string): Promise<string> {
  const value = (await formOf(c))[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

/** Every value of a repeated field (`ids`), as strings. */
export async function fields(c: Context, name: string): Promise<string[]> {
  const value = (await formOf(c))[name];
  const all = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return all.filter((v): v is string => typeof v === 'string');
}

/** A positive integer id from a route parameter or field; undefined when it is not one. */
export function idOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

/**
 * A path of this site to go back to after a form, or the fallback. Only same-site paths: `//host`
 * and `/\host` would leave the site (an open redirect).
 */
export function localPath(value: string, fallback: string): string {
  return /^\/(?![/\\])[^\s]*$/.test(value) ? value : fallback;
}

/** True when the page's script sent the form with fetch and wants JSON instead of a redirect. */
export function wantsJson(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('application/json');
}
