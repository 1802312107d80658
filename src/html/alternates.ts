import { createRequire } from 'node:module';
import type * as Htmlparser2 from 'htmlparser2';
import { resolveUrl } from './urls.js';

// htmlparser2 (4 MB) is loaded on first use, with require() (parse/lazy-imports.ts says why): most
// documents are no HTML page.
const require = createRequire(import.meta.url);
let htmlparser2: typeof Htmlparser2 | undefined;

function loadHtmlparser(): typeof Htmlparser2 {
  htmlparser2 ??= require('htmlparser2') as typeof Htmlparser2;
  return htmlparser2;
}

/** A feed an HTML page links to with `<link rel="alternate">`. */
export interface Alternate {
  href: string;
  type?: string;
  title?: string;
}

const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
  'application/json',
  'application/rdf+xml',
  'application/xml',
  'text/xml',
]);

/** How much of a document's start tells an HTML page from a feed. */
export const HTML_SNIFF_CHARS = 4096;

const HTML_START_RE =
  /^(?:\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|meta[\s>]|title[\s>])/i;

/** True when a document is an HTML page rather than a feed (checked on its first few kilobytes). */
export function looksLikeHtmlPage(text: string): boolean {
  return HTML_START_RE.test(text.slice(0, HTML_SNIFF_CHARS));
}

/** The feeds an HTML page announces (rel=alternate links with a feed type), resolved against its base. */
export function findAlternates(html: string, baseUrl: string | undefined): Alternate[] {
  const found: Alternate[] = [];
  let base = baseUrl;
  const parser = new (loadHtmlparser().Parser)(
    {
      onopentag(name, attrs) {
        if (name === 'base' && attrs['href']) base = resolveUrl(attrs['href'], baseUrl);
        if (name !== 'link' && name !== 'a') return;
        const rels = (attrs['rel'] ?? '').toLowerCase().split(/\s+/);
        const type = (attrs['type'] ?? '').toLowerCase().split(';')[0]?.trim() ?? '';
        if (!rels.includes('alternate') || !FEED_TYPES.has(type) || !attrs['href']) return;
        const alternate: Alternate = { href: resolveUrl(attrs['href'].trim(), base), type };
        if (attrs['title']) alternate.title = attrs['title'];
        if (!found.some((a) => a.href === alternate.href)) found.push(alternate);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html.length > 2_000_000 ? html.slice(0, 2_000_000) : html);
  return found;
}
