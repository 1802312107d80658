import { loadHtmlparser } from './lazy-imports.js';
import { resolveUrl } from './urls.js';

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
