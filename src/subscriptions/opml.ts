import type { Channel } from '../model/stored.js';
import { readOpml } from '../opml/read.js';
import { type OpmlChannel, writeOpml } from '../opml/write.js';
import { checkFollowUrl } from '../poll/check-url.js';
import { pollOnce } from '../poll/poller.js';
import type { FeedPatch } from '../store/store.js';
import { channelFor } from './channels.js';
import type { SubscriptionDeps } from './deps.js';
import { comparableUrl } from './feed-ref.js';
import { unfollow } from './unfollow.js';

/** An outline that was not followed, by line and reason. */
export interface SkippedOutline {
  line: number;
  url: string;
  reason: string;
}

/** What an OPML import did. */
export interface OpmlImport {
  /** Outlines with an xmlUrl. */
  total: number;
  /** Outlines followed now (`added` of them are feeds tidings did not have). */
  followed: number;
  added: number;
  newFeedIds: number[];
  skipped: SkippedOutline[];
  /** Problems with the file itself (not well-formed, folders without feeds). */
  warnings: string[];
}

export interface OpmlImportOptions {
  /** Fetch the new feeds at once (the web import, and `tidings import` unless --no-fetch). */
  fetchNow?: boolean;
  onProgress?: (event: { phase: 'following' | 'fetching'; done: number; total: number }) => void;
}

/**
 * Follows every outline of an OPML document by the rules of `follow`. With `fetchNow` (the CLI's and the
 * web's default) the new feeds are fetched at once and an outline that is a web page linking to no feed is
 * reported and unfollowed; without it nothing is fetched (thousands of outlines stay fast) and an outline
 * pointing at a web page is resolved to its feed by its first poll (poll/linked-feed.ts). Folders become channels ("Parent / Child"
 * when nested), unfiled outlines go to the default channel, and each outline not followed is reported.
 */
export async function importOpml(
  deps: SubscriptionDeps,
  text: string,
  options: OpmlImportOptions = {},
): Promise<OpmlImport> {
  const doc = readOpml(text);
  const result: OpmlImport = {
    total: doc.feeds.length,
    followed: 0,
    added: 0,
    newFeedIds: [],
    skipped: [],
    warnings: doc.warnings,
  };
  const seen = new Map<string, number>();
  /** The line of each new feed's outline. */
  const lines = new Map<number, number>();
  const channels = new Map<string, Channel>();
  // who follows what, read once: an import of thousands of outlines must not read it per outline
  const following = await followersByFeed(deps);
  const now = deps.now().toISOString();
  for (const [i, outline] of doc.feeds.entries()) {
    const skip = (reason: string) => result.skipped.push({ line: outline.line, url: outline.xmlUrl, reason });
    options.onProgress?.({ phase: 'following', done: i + 1, total: doc.feeds.length });
    const checked = checkFollowUrl(deps.poll.config, outline.xmlUrl);
    if (!checked.ok) {
      skip(checked.message);
      continue;
    }
    const key = comparableUrl(checked.url);
    const firstLine = seen.get(key);
    if (firstLine !== undefined) {
      skip(`a duplicate of line ${firstLine}`);
      continue;
    }
    seen.set(key, outline.line);
    const name = outline.channel ?? '';
    const channel = channels.get(name) ?? (await channelFor(deps.store, outline.channel));
    channels.set(name, channel);
    const known = await deps.store.findFeedByUrl(checked.url);
    const followers = known ? following.get(known.id) : undefined;
    if (followers) {
      skip(`already followed in ${followers.join(', ')}`);
      continue;
    }
    const feed = known ?? (await deps.store.addFeed(checked.url, now));
    await deps.store.subscribe(channel.id, feed.id, now);
    following.set(feed.id, [channel.name]);
    if (feed.unfollowedAt !== undefined) await deps.store.updateFeed(feed.id, { unfollowedAt: null });
    // what the outline says of a new feed stands until its first poll says better
    if (!known) await deps.store.updateFeed(feed.id, outlineFacts(outline));
    if (!known) {
      result.newFeedIds.push(feed.id);
      lines.set(feed.id, outline.line);
    }
    result.followed += 1;
  }
  result.added = result.newFeedIds.length;
  if (options.fetchNow === true) await fetchNew(deps, result, lines, options);
  return result;
}

/** The names of the channels that follow each feed. */
async function followersByFeed(deps: SubscriptionDeps): Promise<Map<number, string[]>> {
  const [channels, subscriptions] = await Promise.all([
    deps.store.listChannels(),
    deps.store.listSubscriptions(),
  ]);
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const followers = new Map<number, string[]>();
  for (const s of subscriptions)
    followers.set(s.feedId, [...(followers.get(s.feedId) ?? []), names.get(s.channelId) ?? '?']);
  return followers;
}

function outlineFacts(outline: { title?: string; htmlUrl?: string }): FeedPatch {
  return {
    ...(outline.title ? { title: outline.title } : {}),
    ...(outline.htmlUrl ? { siteUrl: outline.htmlUrl } : {}),
  };
}

/**
 * Fetches the new feeds at once. The first poll of an outline that was a web page moves it to its feed,
 * which is fetched too; a web page that links to no feed is no feed: it is unfollowed and reported.
 */
async function fetchNew(
  deps: SubscriptionDeps,
  result: OpmlImport,
  lines: Map<number, number>,
  options: OpmlImportOptions,
): Promise<void> {
  const feedIds = result.newFeedIds;
  if (feedIds.length === 0) return;
  const total = feedIds.length;
  const onProgress = ({ done }: { done: number }) => options.onProgress?.({ phase: 'fetching', done, total });
  await pollOnce(deps.poll, { feedIds, force: true, onProgress });
  const moved = [];
  for (const id of feedIds) {
    const feed = await deps.store.getFeed(id);
    if (feed?.status !== 'parse_error') continue;
    if (feed.url !== feed.originalUrl) moved.push(id);
    else if (feed.diagnostics.some((d) => d.code === 'document.html')) {
      await unfollow(deps, { feedId: id });
      result.followed -= 1;
      const reason = 'not a feed: a web page that links to no feed';
      result.skipped.push({ line: lines.get(id) ?? 0, url: feed.url, reason });
    }
  }
  result.skipped.sort((a, b) => a.line - b.line);
  if (moved.length > 0) await pollOnce(deps.poll, { feedIds: moved, force: true });
}

/** The subscriptions as OPML 2.0: one outline folder per channel, nested for "Parent / Child" names. */
export async function exportOpml(deps: SubscriptionDeps): Promise<string> {
  const { store } = deps;
  const [channels, subscriptions] = await Promise.all([store.listChannels(), store.listSubscriptions()]);
  const out: OpmlChannel[] = [];
  for (const channel of channels) {
    const feeds = subscriptions.filter((s) => s.channelId === channel.id);
    if (feeds.length === 0) continue;
    out.push({
      name: channel.name,
      feeds: feeds.map(({ feed }) => ({
        xmlUrl: feed.url,
        ...(feed.title ? { title: feed.title } : {}),
        ...(feed.siteUrl ? { htmlUrl: feed.siteUrl } : {}),
      })),
    });
  }
  return writeOpml(out, { title: 'tidings subscriptions', now: deps.now().toISOString() });
}
