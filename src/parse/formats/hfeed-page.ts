// What a page may not do to microformats-parser. It takes the first <base href> as the base of every
// URL without resolving it, so a relative one (`<base href="/">`, common) or one that is no base at all
// (`javascript:...`) makes it throw "Invalid URL"; and a <template> inside an e-* property makes it
// throw a TypeError (it deletes templates from parse5's tree, leaving a hole that parse5's serializer
// trips over). Either one hid every entry of the page (issue 12). Here the page loses its <base> and
// <template> elements before parsing, and the base is resolved as a browser resolves it.

import { decodeHTMLStrict } from 'entities/decode';

/** A page ready for microformats-parser, and the base its URLs resolve against. */
export interface PreparedPage {
  html: string;
  /** The page's own <base> resolved against the document's URL when it is an http(s) URL; else baseUrl. */
  baseUrl: string | undefined;
}

// `>?` lets an unclosed tag end the match at the end of the input: each match then starts where the
// last one ended, and the scan stays linear on thousands of `<base` without a `>`.
const BASE_TAG_RE = /<base(?=[\s/>]|$)[^>]*>?/gi;
const HREF_RE = /[\s/]href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const TEMPLATE_TAG_RE = /<(\/?)template(?=[\s/>]|$)[^>]*>?/gi;
const HAS_TAG_RE = /<\/?(?:base|template)(?=[\s/>]|$)/i;

/** The page without <base> and <template> elements; the base resolved from the first <base href>. */
export function preparePage(html: string, baseUrl: string | undefined): PreparedPage {
  if (!HAS_TAG_RE.test(html)) return { html, baseUrl };
  let base = baseUrl;
  let found = false;
  let out = html.replace(BASE_TAG_RE, (tag) => {
    const href = found ? undefined : HREF_RE.exec(tag);
    if (href) {
      // only the first <base> with an href counts (HTML, "the document base URL")
      found = true;
      base = resolveBase(decodeHTMLStrict(href[1] ?? href[2] ?? href[3] ?? '').trim(), baseUrl) ?? baseUrl;
    }
    return '';
  });
  out = withoutTemplates(out);
  return { html: out, baseUrl: base };
}

// A base that is not an http(s) URL once resolved is ignored, as a browser ignores one it cannot parse.
function resolveBase(href: string, documentUrl: string | undefined): string | undefined {
  if (href === '') return undefined;
  let url: URL;
  try {
    url = documentUrl === undefined ? new URL(href) : new URL(href, documentUrl);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/**
 * The page without its <template> elements, nested ones and all; one left open ends with the page.
 * microformats-parser ignores what templates hold anyway (microformats2 parsing).
 */
function withoutTemplates(html: string): string {
  const pieces: string[] = [];
  let depth = 0;
  let keptFrom = 0;
  for (const m of html.matchAll(TEMPLATE_TAG_RE)) {
    const isEnd = m[1] === '/';
    if (!isEnd) {
      if (depth++ === 0) pieces.push(html.slice(keptFrom, m.index));
    } else if (depth > 0 && --depth === 0) keptFrom = m.index + m[0].length;
  }
  if (depth > 0) keptFrom = html.length;
  if (pieces.length === 0) return html;
  pieces.push(html.slice(keptFrom));
  return pieces.join('');
}
