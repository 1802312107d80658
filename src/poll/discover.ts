import type { FetchOutcome, FetchRequest } from '../fetch/index.js';
import type { ParseResult } from '../model/index.js';
import { decodeDocument, pageRels, parseFeed, parseHfeed } from '../parse/index.js';
import type { PollDeps } from './deps.js';
import { type DiscoveredFeed, feedLinksOf } from './feed-links.js';

export type { DiscoveredFeed };

/** What a page says about its owner: rel=me profiles and a rel=microsub endpoint (IndieWeb discovery). */
export interface PageRels {
  me: string[];
  microsub?: string;
}

/** What a URL turned out to be: a feed (parsed; an h-feed page is one), or a page that links to feeds. */
export type Discovery =
  | {
      kind: 'feed';
      url: string;
      result: ParseResult;
      rels?: PageRels;
      /** The fetch that read it: the first poll of a feed followed now takes it rather than fetch again. */
      fetched: FetchedFeed;
    }
  | { kind: 'page'; url: string; feeds: DiscoveredFeed[]; rels?: PageRels }
  | { kind: 'error'; url: string; reason: DiscoveryFailure; message: string };

/** The answer a discovery read a feed from (Discovery's `fetched`), for a first poll to take. */
export type FetchedFeed = Extract<FetchOutcome, { kind: 'ok' }>;

/** Why a URL could not be followed: it could not be fetched, it points to a private address, or it is no feed. */
export type DiscoveryFailure = 'fetch-failed' | 'private-address' | 'not-a-feed';

/**
 * Fetches a URL a person gave and says what it is: a feed, or a web page whose rel=alternate links
 * name its feeds (autodiscovery), Atom and RSS first. A page with an h-feed (microformats2) and no
 * feed links is itself the feed; with feed links too, it is listed after them.
 */
export async function discover(deps: PollDeps, url: string): Promise<Discovery> {
  const request: FetchRequest = {
    url,
    timeoutMs: deps.config.timeoutMs,
    maxBodyBytes: deps.config.maxBodyBytes,
    allowPrivateAddresses: deps.config.allowPrivateAddresses,
  };
  const outcome = await deps.fetch(request);
  if (outcome.kind === 'error') {
    const reason = outcome.error.kind === 'private_address' ? 'private-address' : 'fetch-failed';
    return { kind: 'error', url, reason, message: outcome.error.message };
  }
  if (outcome.kind !== 'ok')
    return {
      kind: 'error',
      url,
      reason: 'fetch-failed',
      message: `discover: ${url} answered ${outcome.status}`,
    };
  const options = {
    baseUrl: outcome.url,
    ...(outcome.contentType ? { contentType: outcome.contentType } : {}),
  };
  const result = parseFeed(outcome.body, options);
  if (result.version !== '') return { kind: 'feed', url: settledUrl(url, outcome), result, fetched: outcome };
  const feeds = feedLinksOf(result.alternates ?? []);
  const page = readPage(outcome.body, outcome.contentType, outcome.url);
  if (page?.hfeed && feeds.length === 0) {
    return {
      kind: 'feed',
      url: settledUrl(url, outcome),
      result: page.hfeed,
      rels: page.rels,
      fetched: outcome,
    };
  }
  if (page?.hfeed) feeds.push({ url: outcome.url, type: 'text/html', ...titleOf(page.hfeed) });
  if (feeds.length > 0)
    return { kind: 'page', url: outcome.url, feeds, ...(page ? { rels: page.rels } : {}) };
  const why = result.diagnostics.find((d) => d.severity === 'error')?.message ?? 'not a feed';
  return {
    kind: 'error',
    url,
    reason: 'not-a-feed',
    message: `discover: ${url} is not a feed and links to none (${why})`,
  };
}

/**
 * The URL a feed is followed at: where its permanent redirects (301, 308) lead, as far as they go from
 * the URL given; a temporary one (302, 303, 307) is not followed there (RFC 9110 15.4.3: the client
 * keeps the URL it was given), as polling does not move a feed for one.
 */
function settledUrl(url: string, outcome: FetchedFeed): string {
  let settled = url;
  for (const redirect of outcome.redirects) {
    if (!redirect.permanent) return settled;
    settled = redirect.to;
  }
  return outcome.url;
}

/** An HTML page's h-feed (as a parse result) and rel links; undefined for what is not HTML. */
function readPage(
  body: Uint8Array,
  contentType: string | undefined,
  url: string,
): { hfeed?: ParseResult; rels: PageRels } | undefined {
  const decoded = decodeDocument(body, contentType);
  const rels = pageRels(decoded.text, url);
  const parsed = parseHfeed(decoded.text, url);
  if (!parsed) return { rels };
  const hfeed: ParseResult = {
    version: 'hfeed',
    bozo: false,
    encoding: decoded.encoding,
    namespaces: {},
    feed: parsed.feed,
    entries: parsed.entries,
    diagnostics: [],
  };
  return { hfeed, rels };
}

function titleOf(result: ParseResult): { title?: string } {
  return result.feed.title ? { title: result.feed.title } : {};
}
