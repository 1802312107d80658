// Query parameters that track a click rather than name a page; feeds that add them to links on every
// fetch would otherwise look like new entries (utm_* from Google Analytics, fbclid, gclid, Mailchimp's).
const TRACKING = /^(utm_[a-z]+|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_ga|yclid|igshid)$/i;

/**
 * A link reduced to what names the page: no scheme (http and https alike), host in lower case,
 * without default ports and tracking parameters. Two links with one key are the same post.
 */
export function urlKey(link: string | undefined): string | undefined {
  if (!link) return undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link.trim() || undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return link;
  const params = [...url.searchParams].filter(([name]) => !TRACKING.test(name));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  const port = url.port && url.port !== '80' && url.port !== '443' ? `:${url.port}` : '';
  return `//${url.hostname.toLowerCase()}${port}${url.pathname}${query}${url.hash}`;
}
