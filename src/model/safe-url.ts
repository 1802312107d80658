/**
 * The one URL policy of every output (web UI, Microsub, Google Reader, Fever): a link, image, enclosure,
 * site or icon URL taken from a feed reaches a reader only when it is absolute http(s). `javascript:`,
 * `data:` and the rest never become something an app or a browser follows (issue 22).
 */
export function safeLinkUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
