import type { ParseResult } from '../model/index.js';
import { type Discovery, discover, identifyEntries, inheritedAuthors, toNewEntry } from '../poll/index.js';
import type { NewEntry } from '../store/index.js';
import type { ReadingDeps } from './deps.js';

// A look at a feed before following it, without storing anything: the web UI's "Follow a feed" page and
// Microsub's `action=preview` ask the same autodiscovery, and a web page is read as the feeds it links to.

/** A feed as fetched and parsed now. */
export interface FeedPreview {
  url: string;
  result: ParseResult;
}

/** One feed a web page links to: its preview, or why there is none (`error` when it could not be read). */
export interface LinkedFeed {
  url: string;
  title?: string | undefined;
  preview?: FeedPreview;
  /** The link could not be fetched or parsed; neither this nor `preview` when it leads to another page. */
  error?: string;
}

/** What a URL shows: a feed, a page and (the first `maxFeeds` of) the feeds it links to, or an error. */
export type Preview =
  | { kind: 'feed'; feed: FeedPreview }
  | { kind: 'page'; url: string; feeds: LinkedFeed[] }
  | { kind: 'error'; url: string; message: string };

/** Fetches a URL and, when it is a page, the first `maxFeeds` feeds it links to, at once. */
export async function previewUrl(
  deps: Pick<ReadingDeps, 'poll'>,
  url: string,
  maxFeeds: number,
): Promise<Preview> {
  const found = await discover(deps.poll, url);
  if (found.kind === 'error') return { kind: 'error', url, message: found.message };
  if (found.kind === 'feed') return { kind: 'feed', feed: feedOf(found) };
  const feeds = await Promise.all(
    found.feeds.slice(0, maxFeeds).map(async (link): Promise<LinkedFeed> => {
      const linked = await discover(deps.poll, link.url);
      const base = { url: link.url, title: link.title };
      if (linked.kind === 'feed') return { ...base, preview: feedOf(linked) };
      return linked.kind === 'error' ? { ...base, error: linked.message } : base;
    }),
  );
  return { kind: 'page', url: found.url, feeds };
}

function feedOf(found: Extract<Discovery, { kind: 'feed' }>): FeedPreview {
  return { url: found.url, result: found.result };
}

// Entries of one document weighed for the latest: a feed of thousands is previewed by its first ones.
const PREVIEW_READ = 1000;

/**
 * The latest `limit` entries of a preview, newest first, as following would store and sort them (the
 * same normalization and the timeline's order): a feed that lists its entries oldest first is previewed
 * by its newest, not its oldest.
 */
export function previewEntries(preview: FeedPreview, now: Date, limit: number): NewEntry[] {
  const feedAuthors = inheritedAuthors(preview.result);
  const entries = identifyEntries(preview.result.entries.slice(0, PREVIEW_READ), []).map((item) =>
    toNewEntry(item, now, [], false, feedAuthors),
  );
  // stable: entries of one time keep the document's order
  return entries.sort((a, b) => (a.sortAt < b.sortAt ? 1 : a.sortAt > b.sortAt ? -1 : 0)).slice(0, limit);
}
