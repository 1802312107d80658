import type { FetchRequest } from '../fetch/types.js';
import type { ParseResult } from '../model/parse-result.js';
import { parseFeed } from '../parse/index.js';
import type { PollDeps } from './deps.js';

/** What a URL turned out to be: a feed (parsed), or a page that links to feeds. */
export type Discovery =
  | { kind: 'feed'; url: string; result: ParseResult }
  | { kind: 'page'; url: string; feeds: { url: string; type?: string; title?: string }[] }
  | { kind: 'error'; url: string; message: string };

const FEED_TYPE_ORDER = [
  'application/atom+xml',
  'application/rss+xml',
  'application/feed+json',
  'application/json',
];

/**
 * Fetches a URL a person gave and says what it is: a feed, or a web page whose rel=alternate links
 * name its feeds (autodiscovery), Atom and RSS first.
 */
export async function discover(deps: PollDeps, url: string): Promise<Discovery> {
  const request: FetchRequest = {
    url,
    timeoutMs: deps.config.timeoutMs,
    maxBodyBytes: deps.config.maxBodyBytes,
    allowPrivateAddresses: deps.config.allowPrivateAddresses,
  };
  const outcome = await deps.fetch(request);
  if (outcome.kind === 'error') return { kind: 'error', url, message: outcome.error.message };
  if (outcome.kind !== 'ok')
    return { kind: 'error', url, message: `discover: ${url} answered ${outcome.status}` };
  const options = {
    baseUrl: outcome.url,
    ...(outcome.contentType ? { contentType: outcome.contentType } : {}),
  };
  const result = parseFeed(outcome.body, options);
  if (result.version !== '') return { kind: 'feed', url: outcome.url, result };
  const feeds = (result.alternates ?? [])
    .map((a) => ({
      url: a.href,
      ...(a.type ? { type: a.type } : {}),
      ...(a.title ? { title: a.title } : {}),
    }))
    .sort((a, b) => rank(a.type) - rank(b.type));
  if (feeds.length > 0) return { kind: 'page', url: outcome.url, feeds };
  const why = result.diagnostics.find((d) => d.severity === 'error')?.message ?? 'not a feed';
  return { kind: 'error', url, message: `discover: ${url} is not a feed and links to none (${why})` };
}

function rank(type: string | undefined): number {
  const i = FEED_TYPE_ORDER.indexOf(type ?? '');
  return i < 0 ? FEED_TYPE_ORDER.length : i;
}
