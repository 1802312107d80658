import type { Diagnostic } from './diagnostic.js';
import type { Entry } from './entry.js';
import type { Feed } from './feed.js';

/** The version vocabulary of the Universal Feed Parser, and '' when unknown. */
export type FeedVersion =
  | ''
  | 'rss090'
  | 'rss091n'
  | 'rss091u'
  | 'rss092'
  | 'rss093'
  | 'rss094'
  | 'rss20'
  | 'rss10'
  | 'rss'
  | 'atom01'
  | 'atom02'
  | 'atom03'
  | 'atom10'
  | 'atom'
  | 'cdf'
  | 'json1'
  | 'json11'
  | 'hfeed';

/** What parseFeed returns: the object of contracts/parse-json.md. */
export interface ParseResult {
  version: FeedVersion;
  bozo: boolean;
  bozoReason?: string;
  encoding: string;
  namespaces: Record<string, string>;
  feed: Feed;
  entries: Entry[];
  diagnostics: Diagnostic[];
  /** Feeds an HTML page links to (rel=alternate), when an HTML page was given instead of a feed. */
  alternates?: { href: string; type?: string; title?: string }[];
}

export type { Feed };
