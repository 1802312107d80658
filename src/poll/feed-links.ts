/** A feed a page links to; `text/html` marks the page itself when it carries an h-feed. */
export interface DiscoveredFeed {
  url: string;
  type?: string;
  title?: string;
}

const FEED_TYPE_ORDER = [
  'application/atom+xml',
  'application/rss+xml',
  'application/feed+json',
  'application/json',
];

/** The feeds a page's rel=alternate links name, Atom and RSS first. */
export function feedLinksOf(
  alternates: readonly { href: string; type?: string; title?: string }[],
): DiscoveredFeed[] {
  return alternates
    .map((a) => ({
      url: a.href,
      ...(a.type ? { type: a.type } : {}),
      ...(a.title ? { title: a.title } : {}),
    }))
    .sort((a, b) => rank(a.type) - rank(b.type));
}

function rank(type: string | undefined): number {
  const i = FEED_TYPE_ORDER.indexOf(type ?? '');
  return i < 0 ? FEED_TYPE_ORDER.length : i;
}
