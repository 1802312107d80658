import { MAX_ATTRIBUTES, resolveUrl, type SanitizeReport, sanitizeHtml } from '../../html/index.js';
import type { Text } from '../../model/index.js';
import { type ParseContext, type Scope, scopeOf } from '../context.js';
import type { DiagnosticPlace } from '../diagnostics.js';
import { repairText } from '../text/index.js';
import {
  hasChildElements,
  isElement,
  type MarkupBases,
  serializeChildren,
  textOf,
  type XmlElement,
} from '../xml/index.js';
import { looksLikeHtml } from './html-guess.js';

type TextType = Text['type'];

const ATOM_TYPES: Record<string, TextType> = {
  text: 'text/plain',
  html: 'text/html',
  xhtml: 'application/xhtml+xml',
  'text/plain': 'text/plain',
  'text/html': 'text/html',
  'application/xhtml+xml': 'application/xhtml+xml',
};

/** The type a text construct declares (Atom `type`), or the default for the element. */
export function declaredType(el: XmlElement, fallback: TextType): { type: TextType; mime?: string } {
  const raw = el.attrs['type']?.trim().toLowerCase();
  if (!raw) return { type: fallback };
  const known = ATOM_TYPES[raw];
  if (known) return { type: known };
  // Atom 0.3 and RSS extensions name any MIME type; XML types hold markup, other text/* hold text
  if (raw.endsWith('+xml') || raw.endsWith('/xml')) return { type: 'application/xhtml+xml', mime: raw };
  if (raw === 'escaped' || raw === 'base64') return { type: fallback };
  if (raw.startsWith('text/')) return { type: 'text/plain', mime: raw };
  return { type: fallback, mime: raw };
}

export interface TextOptions {
  /** Type when the element declares none. */
  fallback: TextType;
  /** Guess HTML in plain text, as RSS requires (RSS never says whether a title is HTML). */
  guessHtml: boolean;
  /** Atom 1.0 xhtml content is wrapped in one xhtml:div that is not part of the content. */
  unwrapDiv: boolean;
}

/** Reads a text construct (title, summary, content ...) into a Text with its type, language and base. */
export function readText(ctx: ParseContext, el: XmlElement, scope: Scope, options: TextOptions): Text {
  let { type, mime } = declaredType(el, options.fallback);
  let value: string;
  const mode = el.attrs['mode']?.trim().toLowerCase();
  const source = options.unwrapDiv ? unwrapDiv(el) : el;
  if (
    hasChildElements(type === 'application/xhtml+xml' ? el : source) &&
    mode !== 'escaped' &&
    mode !== 'base64'
  ) {
    // XHTML is written back with its text escaped; markup a feed did not escape is read back as HTML.
    // An xml:base inside XHTML (the wrapper div's included) applies to the URLs under it.
    const xhtml = type === 'application/xhtml+xml';
    value = serializeChildren(
      source,
      xhtml,
      xhtml ? markupBases(source === el ? undefined : source, scope) : undefined,
    );
    if (type === 'text/plain' && options.guessHtml) type = 'text/html';
  } else {
    value = textOf(source);
    if (mode === 'base64' || (mime !== undefined && isBinaryType(mime))) {
      value = decodeBase64(value);
      if (mode !== 'base64') type = 'text/plain';
    }
    if (type === 'application/xhtml+xml' && mode === 'escaped') type = 'text/html';
  }
  value = repairText(value.trim());
  if (type === 'text/plain' && options.guessHtml && mime === undefined && looksLikeHtml(value))
    type = 'text/html';
  if (type !== 'text/plain') value = sanitizeReported(ctx, el, value, scope.base);
  const text: Text = { type, value };
  if (scope.lang !== undefined) text.language = scope.lang;
  if (scope.base !== undefined) text.base = scope.base;
  return text;
}

function markupBases(wrapper: XmlElement | undefined, scope: Scope): MarkupBases {
  const start = wrapper === undefined ? scope.base : scopeOf(wrapper, scope).base;
  return {
    base: start,
    changed: start !== scope.base,
    enter: (el, base) => scopeOf(el, { base, lang: undefined }).base,
    resolve: (url, base) => resolveUrl(url, base),
  };
}

/** The sanitized HTML; what the sanitizer cut for a limit becomes a diagnostic on the element. */
export function sanitizeReported(
  ctx: ParseContext,
  el: XmlElement | undefined,
  html: string,
  baseUrl: string | undefined,
): string {
  const report: SanitizeReport = { droppedAttributes: 0 };
  const out = sanitizeHtml(html, baseUrl === undefined ? { report } : { baseUrl, report });
  if (report.droppedAttributes > 0) {
    const place: DiagnosticPlace = {};
    if (el !== undefined) {
      place.offset = el.offset;
      place.field = el.name;
    }
    if (ctx.entryIndex !== undefined) place.entry = ctx.entryIndex;
    ctx.diagnostics.add(
      'html.too-many-attributes',
      `html: a tag has more than ${MAX_ATTRIBUTES} attributes; ${report.droppedAttributes} past the first ${MAX_ATTRIBUTES} were dropped`,
      place,
    );
  }
  return out;
}

function unwrapDiv(el: XmlElement): XmlElement {
  let only: XmlElement | undefined;
  for (const child of el.children) {
    if (isElement(child)) {
      if (only) return el;
      only = child;
    } else if (child.text.trim() !== '') return el;
  }
  return only && only.local === 'div' ? only : el;
}

// Atom 1.0 (RFC 4287 4.1.3.3): a type that is neither text/* nor XML means base64-encoded content.
function isBinaryType(mime: string): boolean {
  return mime.includes('/') && !mime.startsWith('text/') && !mime.endsWith('+xml') && !mime.endsWith('/xml');
}

function decodeBase64(value: string): string {
  try {
    return Buffer.from(value.trim(), 'base64').toString('utf8');
  } catch {
    return value;
  }
}
