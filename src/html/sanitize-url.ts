// URLs in attribute values: the scheme checks of the sanitizer. A browser decodes character references
// in a value, drops tabs and newlines anywhere in a URL and spaces and C0 controls around it, and reads
// the scheme case-insensitively, so `jav&#x09;ascript:`, `&#106;avascript:` and `JaVaScRiPt:` are all
// javascript: (OWASP XSS filter evasion cheat sheet).

import { decodeAttributeValue } from './sanitize-text.js';
import { hasSafeScheme, isPlainHttpUrl, isSafeUrl, resolveUrl } from './urls.js';

/** Schemes that run script or carry a document of their own; the check is on the lower-cased scheme. */
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'livescript', 'mocha', 'data']);
const LONGEST_SCRIPT_SCHEME = 10;

// Raster images only: an SVG image is a document (scripts do not run in <img>, but an SVG that a user
// opens in a tab from the image's menu does).
const RASTER_DATA_IMAGE_RE = /^[\t\n\f\r ]*data:image\/(?:png|jpeg|jpg|gif|webp|avif|bmp)[;,]/i;

/**
 * True when the attribute value, read as a URL, has a scheme that runs script or embeds a document
 * (javascript:, vbscript:, data: ...). For attributes that are not URLs: a value that reads as such a
 * URL is dropped whatever the attribute's name (SVG `values`, `to`, MathML `altimg` ...).
 */
export function hasScriptScheme(value: string): boolean {
  // Most values (class, alt, width) have no colon, and a colon written as a reference needs an `&`.
  if (value.indexOf(':') === -1 && value.indexOf('&') === -1) return false;
  const url = decodeAttributeValue(value);
  let i = 0;
  while (i < url.length && url.charCodeAt(i) <= 0x20) i++;
  let scheme = '';
  for (; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 0x09 || code === 0x0a || code === 0x0d) continue;
    if (code === 0x3a) return SCRIPT_SCHEMES.has(scheme);
    const lower = code | 0x20;
    if (!(lower >= 0x61 && lower <= 0x7a) || scheme.length >= LONGEST_SCRIPT_SCHEME) return false;
    scheme += String.fromCharCode(lower);
  }
  return false;
}

/** What the sanitizer needs to check a URL: the base, when relative URLs are resolved. */
export interface UrlContext {
  baseUrl: string | undefined;
}

/**
 * A URL attribute's value, decoded (`&amp;` is `&` to a browser), resolved against the base when the
 * Universal Feed Parser resolves it, and emptied when its scheme is unsafe (acceptable_attribute_href.xml
 * keeps an empty href). A resolved URL is used only when it has a safe scheme, else the original stays.
 * data: is kept only for the src of an img, and only for raster images.
 */
export function sanitizeUrl(
  ctx: UrlContext,
  element: string,
  key: string,
  value: string,
  resolvable: boolean,
): string {
  if (isPlainHttpUrl(value)) return value;
  const decoded = decodeAttributeValue(value);
  let url = decoded;
  if (resolvable) {
    const trimmed = decoded.trim();
    if (ctx.baseUrl === undefined) {
      url = trimmed || decoded;
    } else {
      const resolved = resolveUrl(trimmed, ctx.baseUrl);
      if (hasSafeScheme(resolved)) return resolved;
    }
  }
  if (isSafeUrl(url)) return url;
  if (key === 'src' && element === 'img' && RASTER_DATA_IMAGE_RE.test(url)) return url;
  return '';
}
