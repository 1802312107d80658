// WebSub discovery (W3C WebSub, section 4): the hub and self links of a fetched topic. The HTTP Link
// header comes first (RFC 8288); then the document: atom:link in Atom and RSS, <link> in HTML (the h-feed
// reader keeps rel=hub and rel=self) and `hubs` in JSON Feed, which the parser reads into feed.hubs and
// feed.self (stored as the feed's hubUrl and selfUrl).

import type { FetchOutcome } from '../../fetch/index.js';
import type { StoredFeed } from '../../model/index.js';
import type { FeedPatch } from '../../store/index.js';

/** One link of a Link header: its target (resolved) and its relation types, lower case. */
export interface HeaderLink {
  href: string;
  rels: string[];
}

/**
 * The links of a Link header value (several headers arrive joined with ", "): `<url>; rel="a b"`. A
 * comma inside <...> or a quoted string does not end a link. Targets resolve against `baseUrl`.
 */
export function parseLinkHeader(value: string, baseUrl: string): HeaderLink[] {
  const links: HeaderLink[] = [];
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;
  for (const match of value.matchAll(pattern)) {
    const href = resolve(match[1] ?? '', baseUrl);
    if (href === undefined) continue;
    const params = match[2] ?? '';
    const rels: string[] = [];
    for (const param of params.matchAll(/;\s*([^;,=\s]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g)) {
      if ((param[1] ?? '').toLowerCase() !== 'rel') continue;
      const text = (param[2] ?? param[3] ?? '').replace(/\\(.)/g, '$1');
      rels.push(...text.toLowerCase().split(/\s+/).filter(Boolean));
      break; // RFC 8288 section 3.3: only the first rel parameter counts
    }
    links.push({ href, rels });
  }
  return links;
}

function resolve(href: string, baseUrl: string): string | undefined {
  try {
    const url = new URL(href.trim(), baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The hub and topic links a fetched document announces; the Link header wins over the document. */
export interface PushLinks {
  hub?: string;
  self?: string;
}

/** The first hub and self of the Link header, each undefined when the header names none. */
export function headerPushLinks(headers: Record<string, string>, baseUrl: string): PushLinks {
  const value = headers['link'];
  if (value === undefined) return {};
  const links = parseLinkHeader(value, baseUrl);
  const hub = links.find((link) => link.rels.includes('hub'))?.href;
  const self = links.find((link) => link.rels.includes('self'))?.href;
  return { ...(hub ? { hub } : {}), ...(self ? { self } : {}) };
}

/**
 * The hub and topic a poll found: the Link header's first, then the document's (which the parser put in
 * the patch); the topic is the self link, else the URL fetched (after redirects: websub.rocks 201, 202).
 * A document's links are stored as the feed's hubUrl and selfUrl. A 304 keeps what was found before.
 */
export function discovered(
  feed: StoredFeed,
  outcome: FetchOutcome,
  patch: FeedPatch,
): { hub: string; topic: string } | undefined {
  if (outcome.kind === 'not_modified') {
    const hub = feed.hubUrl;
    return hub === undefined ? undefined : { hub, topic: feed.selfUrl ?? outcome.url };
  }
  if (outcome.kind !== 'ok') return undefined;
  const header = headerPushLinks(outcome.headers, outcome.url);
  const hub = header.hub ?? absolute(patch.hubUrl, outcome.url);
  const self = header.self ?? absolute(patch.selfUrl, outcome.url);
  patch.hubUrl = hub ?? null;
  patch.selfUrl = self ?? null;
  return hub === undefined ? undefined : { hub, topic: self ?? outcome.url };
}

function absolute(url: string | null | undefined, base: string): string | undefined {
  if (!url) return undefined;
  try {
    const resolved = new URL(url, base);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : undefined;
  } catch {
    return undefined;
  }
}
