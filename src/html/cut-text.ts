// Cutting a text to a number of UTF-8 bytes without breaking it (issue 22: entries of 19 MB made the sync
// APIs fail). HTML is the sanitizer's output, whose shape is known: tags with double-quoted attribute
// values in which `<`, `>` and `"` are escaped, text in which `<` is escaped, comments without `</`. It
// is cut before a tag (an element boundary) and the elements still open there are closed, as the
// sanitizer would close them; only when that would keep less than half of the limit (one huge paragraph)
// is a text node cut, at a space when there is one near, never inside a character reference or a
// surrogate pair.

import { IMPLIED_CLOSES, VOID_ELEMENTS } from './sanitize-allowlist.js';

/** How far back from the limit a cut in text looks for white space to cut at, in UTF-16 units. */
const SPACE_LOOKBACK = 256;
/** The longest character reference (`&CounterClockwiseContourIntegral;` is 33) with some slack. */
const MAX_REFERENCE = 40;

/** UTF-8 bytes of text[start, end) (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8Bytes(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** True when the text takes at most maxBytes in UTF-8 (cheap for the short texts most fields are). */
export function fitsInBytes(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return true;
  if (text.length > maxBytes) return false;
  return Buffer.byteLength(text, 'utf8') <= maxBytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The index in text[start, end) where the UTF-8 bytes from `start` would pass `budget`, at a code point boundary. */
function indexAtBytes(text: string, start: number, end: number, budget: number): number {
  let bytes = 0;
  let i = start;
  while (i < end) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1));
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > budget) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return i;
}

/** Moves a cut at `at` in text[start, ...) back to white space in the last SPACE_LOOKBACK units, if any. */
function backToSpace(text: string, start: number, at: number): number {
  for (let i = at; i > start && i > at - SPACE_LOOKBACK; i--) {
    const code = text.charCodeAt(i - 1);
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) return i - 1;
  }
  return at;
}

/** Plain text cut to at most maxBytes of UTF-8, at white space near the limit when there is some. */
export function cutPlainText(text: string, maxBytes: number): string {
  if (fitsInBytes(text, maxBytes)) return text;
  const at = indexAtBytes(text, 0, text.length, maxBytes);
  return text.slice(0, backToSpace(text, 0, at)).trimEnd();
}

/** The elements open in sanitized HTML, as the sanitizer keeps them: names as written, and lower-cased keys. */
class OpenElements {
  readonly names: string[] = [];
  readonly keys: string[] = [];
  /** UTF-8 bytes of the end tags that would close them all. */
  closingBytes = 0;

  /** Updates the stack for the tag html[start, end). */
  apply(html: string, start: number, end: number): void {
    if (html.charCodeAt(start + 1) === 0x2f /* / */) {
      const key = tagName(html, start + 2).toLowerCase();
      const index = this.keys.lastIndexOf(key);
      if (index >= 0) while (this.keys.length > index) this.pop();
      return;
    }
    const name = tagName(html, start + 1);
    if (name === '') return; // a comment, a declaration
    const key = name.toLowerCase();
    const implied = IMPLIED_CLOSES.get(key);
    while (implied?.has(this.keys[this.keys.length - 1] ?? '')) this.pop();
    if (VOID_ELEMENTS.has(key) || html.charCodeAt(end - 2) === 0x2f /* /> */) return;
    this.names.push(name);
    this.keys.push(key);
    this.closingBytes += utf8Bytes(name) + 3;
  }

  /** The end tags that close what is open, innermost first. */
  closing(): string {
    let out = '';
    for (let i = this.names.length - 1; i >= 0; i--) out += `</${this.names[i]}>`;
    return out;
  }

  private pop(): void {
    this.keys.pop();
    this.closingBytes -= utf8Bytes(this.names.pop() as string) + 3;
  }
}

function tagName(html: string, at: number): string {
  let end = at;
  while (end < html.length && /[A-Za-z0-9:_-]/.test(html[end] as string)) end++;
  return html.slice(at, end);
}

/** Where the markup starting at html[start] (`<`) ends (after its `>`), or -1 when it does not end. */
function markupEnd(html: string, start: number): number {
  if (html.startsWith('<!--', start)) {
    const close = html.indexOf('-->', start + 4);
    return close < 0 ? -1 : close + 3;
  }
  let quoted = false;
  for (let i = start + 1; i < html.length; i++) {
    const code = html.charCodeAt(i);
    if (code === 0x22 /* " */) quoted = !quoted;
    else if (code === 0x3e /* > */ && !quoted) return i + 1;
  }
  return -1;
}

/** What the walk up to the limit found: the last tag boundary that fits, and the text node the limit fell in. */
interface CutPlan {
  /** Index of the last tag boundary whose prefix, with the end tags it needs, fits. */
  boundary: number;
  boundaryBytes: number;
  /** The text node the limit fell in, with the bytes before it and what was open at its start. */
  text?: { start: number; end: number; bytesBefore: number; open: OpenElements };
}

function planCut(html: string, maxBytes: number): CutPlan {
  const open = new OpenElements();
  const plan: CutPlan = { boundary: 0, boundaryBytes: 0 };
  let bytes = 0;
  let i = 0;
  while (i < html.length) {
    if (html.charCodeAt(i) === 0x3c /* < */) {
      if (bytes + open.closingBytes <= maxBytes) {
        plan.boundary = i;
        plan.boundaryBytes = bytes;
      }
      const end = markupEnd(html, i);
      if (end < 0) break; // never in the sanitizer's output: the rest is left out
      bytes += utf8Bytes(html, i, end);
      if (bytes > maxBytes) break;
      open.apply(html, i, end);
      i = end;
      continue;
    }
    const next = html.indexOf('<', i);
    const end = next < 0 ? html.length : next;
    const size = utf8Bytes(html, i, end);
    if (bytes + size + open.closingBytes > maxBytes) {
      plan.text = { start: i, end, bytesBefore: bytes, open };
      break;
    }
    bytes += size;
    i = end;
  }
  return plan;
}

/** The elements open at html[end] (the same walk as planCut's, up to a boundary). */
function openAt(html: string, end: number): OpenElements {
  const open = new OpenElements();
  let i = html.indexOf('<');
  while (i >= 0 && i < end) {
    const close = markupEnd(html, i);
    if (close < 0 || close > end) break;
    open.apply(html, i, close);
    i = html.indexOf('<', close);
  }
  return open;
}

/**
 * Sanitized HTML cut to at most maxBytes of UTF-8: at the last element boundary that fits, with the
 * elements open there closed, or inside the text node the limit falls in when a boundary would keep less
 * than half of the limit.
 */
export function cutHtml(html: string, maxBytes: number): string {
  if (fitsInBytes(html, maxBytes)) return html;
  const plan = planCut(html, maxBytes);
  if (plan.text !== undefined && plan.boundaryBytes < maxBytes / 2) {
    const { start, end, bytesBefore, open } = plan.text;
    const budget = maxBytes - bytesBefore - open.closingBytes;
    let at = indexAtBytes(html, start, end, Math.max(0, budget));
    // never inside a character reference: `&amp` would become text, `&#12` another character
    const amp = html.lastIndexOf('&', at - 1);
    if (amp >= start && amp > at - MAX_REFERENCE) {
      const semicolon = html.indexOf(';', amp);
      if (semicolon < 0 || semicolon >= at) at = amp;
    }
    at = backToSpace(html, start, at);
    if (at > start) return html.slice(0, at).trimEnd() + open.closing();
  }
  const open = openAt(html, plan.boundary);
  return html.slice(0, plan.boundary).trimEnd() + open.closing();
}
