import type { StoredFeed } from '../model/index.js';
import type { FeedPatch } from '../store/index.js';
import type { PollDeps } from './deps.js';
import { feedLinksOf } from './feed-links.js';

/**
 * The first poll of a followed URL that turns out to be a web page linking to feeds (an OPML outline
 * whose xmlUrl is a home page, issue 13): the feed follows the page's first feed link from now on, due
 * at once. Imports resolve pages this way, lazily, so that an import of thousands of outlines fetches
 * nothing. Nothing changes when the feed was read before, or when another feed already has that URL.
 */
export async function adoptLinkedFeed(
  deps: PollDeps,
  feed: StoredFeed,
  alternates: readonly { href: string; type?: string; title?: string }[] | undefined,
  message: string,
  now: Date,
): Promise<FeedPatch> {
  if (feed.lastCheckedAt !== undefined) return {};
  const target = feedLinksOf(alternates ?? [])[0]?.url;
  if (target === undefined || target === feed.url) return {};
  const taken = await deps.store.feeds.findByUrl(target);
  if (taken && taken.id !== feed.id) return {};
  return {
    url: target,
    nextCheckAt: now.toISOString(),
    message: `${message}; following its feed ${target} from now on`,
  };
}
