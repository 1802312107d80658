import type { Channel, StoredFeed } from '../model/index.js';
import { type OpmlChannel, type OpmlFeed, readOpml, writeOpml } from '../opml/index.js';
import { checkFollowUrl, discover, pollOnce } from '../poll/index.js';
import type { FeedPatch, Store } from '../store/index.js';
import { channelFor, existingChannel, oneLineName } from './channels.js';
import type { SubscriptionDeps } from './deps.js';
import { channelsFollowing, comparableUrl } from './feed-ref.js';
import { updateFeedSettings } from './settings.js';

/** An outline that was not followed, by line and reason: it was followed already, or it could not be. */
export interface SkippedOutline {
  line: number;
  url: string;
  reason: string;
  /** `already-followed`: some channel follows its feed already (or an earlier line of the file does). */
  outcome: 'already-followed' | 'failed';
}

/**
 * What an OPML import did, in numbers that add up: every outline with an xmlUrl was followed now,
 * followed already, or failed (`followed + alreadyFollowed + failed === total`), and the new feeds are
 * some of those followed now (`added <= followed`). `skipped` lists the outlines not followed now.
 */
export interface OpmlImport {
  /** Outlines with an xmlUrl. */
  total: number;
  /** Outlines followed now (`added` of them are feeds tidings did not have). */
  followed: number;
  added: number;
  /** Outlines whose feed a channel followed already (or a duplicate of one of those within the file). */
  alreadyFollowed: number;
  /** Outlines that could not be followed: not a URL, a private address, not a feed... */
  failed: number;
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

/** What became of one outline. */
type Outcome =
  /** `also`: the index of the same feed's first outline, followed in another folder's channel. */
  | { kind: 'followed'; feedId: number; isNew: boolean; also?: number }
  | { kind: 'already-followed' | 'failed'; reason: string }
  /** The same feed as an earlier outline (by index): it shares that one's fate. */
  | { kind: 'duplicate'; of: number; line: number };

/**
 * Follows every outline of an OPML document by the rules of `follow`. With `fetchNow` (the CLI's and the
 * web's default) the new feeds are fetched at once, and an outline that is a web page linking to no feed is
 * reported and its feed forgotten (no row is left of it); without it nothing is fetched (thousands of
 * outlines stay fast) and an outline pointing at a web page is resolved to its feed by its first poll
 * (poll/linked-feed.ts). Folders become channels ("Parent / Child" when nested), created only when a feed
 * is followed in them, unfiled outlines go to the default channel, and each outline not followed is reported.
 */
export async function importOpml(
  deps: SubscriptionDeps,
  text: string,
  options: OpmlImportOptions = {},
): Promise<OpmlImport> {
  const doc = readOpml(text);
  const channels = new ImportChannels(deps.store);
  // each URL's first outline, and the folders it was followed in by this import
  const seen = new Map<string, { index: number; folders: Set<string> }>();
  // who follows what, read once: an import of thousands of outlines must not read it per outline
  const following = await followersByFeed(deps);
  const now = deps.now().toISOString();
  const outcomes: Outcome[] = [];
  for (const [i, outline] of doc.feeds.entries()) {
    options.onProgress?.({ phase: 'following', done: i + 1, total: doc.feeds.length });
    const checked = checkFollowUrl(deps.poll.config, outline.xmlUrl);
    if (!checked.ok) {
      outcomes.push({ kind: 'failed', reason: checked.message });
      continue;
    }
    const key = comparableUrl(checked.url);
    const folder = outline.channel?.trim().toLowerCase() ?? '';
    const first = seen.get(key);
    if (first !== undefined) {
      // the same feed under another folder: followed in that channel too, as the export wrote it (a feed
      // in two channels is in two folders); under the same folder again, a duplicate
      const earlier = outcomes[first.index];
      if (earlier?.kind === 'followed' && !first.folders.has(folder)) {
        first.folders.add(folder);
        const channel = await channels.get(outline.channel);
        await deps.store.channels.subscribe(channel.id, earlier.feedId, now);
        outcomes.push({ kind: 'followed', feedId: earlier.feedId, isNew: false, also: first.index });
        continue;
      }
      outcomes.push({ kind: 'duplicate', of: first.index, line: doc.feeds[first.index]?.line ?? 0 });
      continue;
    }
    seen.set(key, { index: i, folders: new Set([folder]) });
    outcomes.push(
      await followOutline(deps, { ...outline, xmlUrl: checked.url }, { channels, following, now }),
    );
  }
  if (options.fetchNow === true) await fetchNew(deps, doc.feeds, outcomes, options);
  await channels.dropEmpty();
  return summarize(doc.feeds, outcomes, doc.warnings);
}

/** Follows one outline's feed in its folder's channel (created now when new), unless a channel follows it. */
async function followOutline(
  deps: SubscriptionDeps,
  outline: OpmlFeed,
  run: { channels: ImportChannels; following: Map<number, string[]>; now: string },
): Promise<Outcome> {
  const known = await deps.store.feeds.findByUrl(outline.xmlUrl);
  const followers = known ? run.following.get(known.id) : undefined;
  if (followers) return { kind: 'already-followed', reason: `already followed in ${followers.join(', ')}` };
  const channel = await run.channels.get(outline.channel);
  const feed = known ?? (await deps.store.feeds.add(outline.xmlUrl, run.now));
  await deps.store.channels.subscribe(channel.id, feed.id, run.now);
  run.following.set(feed.id, [channel.name]);
  // what the outline says of a new feed stands until its first poll says better
  if (!known) await deps.store.feeds.update(feed.id, outlineFacts(outline));
  return { kind: 'followed', feedId: feed.id, isNew: !known };
}

/** The counts and the outlines not followed, each duplicate counted as what became of its first outline. */
function summarize(feeds: OpmlFeed[], outcomes: Outcome[], warnings: string[]): OpmlImport {
  const result: OpmlImport = {
    total: feeds.length,
    followed: 0,
    added: 0,
    alreadyFollowed: 0,
    failed: 0,
    newFeedIds: [],
    skipped: [],
    warnings,
  };
  outcomes.forEach((outcome, i) => {
    const outline = feeds[i] as OpmlFeed;
    const skip = (kind: SkippedOutline['outcome'], reason: string) => {
      result.skipped.push({ line: outline.line, url: outline.xmlUrl, reason, outcome: kind });
      if (kind === 'failed') result.failed++;
      else result.alreadyFollowed++;
    };
    if (
      outcome.kind === 'followed' &&
      outcome.also !== undefined &&
      outcomes[outcome.also]?.kind === 'failed'
    )
      skip('failed', `a duplicate of line ${feeds[outcome.also]?.line ?? 0}`);
    else if (outcome.kind === 'followed') {
      result.followed++;
      if (outcome.isNew) result.newFeedIds.push(outcome.feedId);
    } else if (outcome.kind === 'duplicate') {
      const first = outcomes[outcome.of];
      skip(first?.kind === 'failed' ? 'failed' : 'already-followed', `a duplicate of line ${outcome.line}`);
    } else skip(outcome.kind, outcome.reason);
  });
  result.added = result.newFeedIds.length;
  return result;
}

/** The names of the channels that follow each feed. */
async function followersByFeed(deps: SubscriptionDeps): Promise<Map<number, string[]>> {
  const [channels, subscriptions] = await Promise.all([
    deps.store.channels.list(),
    deps.store.channels.listSubscriptions(),
  ]);
  const names = new Map(channels.map((c) => [c.id, c.name]));
  const followers = new Map<number, string[]>();
  for (const s of subscriptions)
    followers.set(s.feedId, [...(followers.get(s.feedId) ?? []), names.get(s.channelId) ?? '?']);
  return followers;
}

/**
 * The channels of an import, found or created when a feed is first followed in them: a folder whose
 * outlines were all followed already or all failed gets no channel. Those created by this import that
 * end up following nothing (their feeds were pages without feeds) are deleted at the end.
 */
class ImportChannels {
  private readonly byName = new Map<string, Channel>();
  private readonly created: Channel[] = [];

  constructor(private readonly store: Store) {}

  async get(given: string | undefined): Promise<Channel> {
    const name = given === undefined ? undefined : oneLineName(given);
    const key = name?.toLowerCase() ?? '';
    const known = this.byName.get(key);
    if (known) return known;
    const existing = await existingChannel(this.store, name);
    const channel = existing ?? (await channelFor(this.store, name));
    if (!existing) this.created.push(channel);
    this.byName.set(key, channel);
    return channel;
  }

  async dropEmpty(): Promise<void> {
    for (const channel of this.created)
      if ((await this.store.channels.listSubscriptions(channel.id)).length === 0)
        await this.store.channels.delete(channel.uid);
  }
}

function outlineFacts(outline: { title?: string; htmlUrl?: string }): FeedPatch {
  return {
    ...(outline.title ? { title: outline.title } : {}),
    ...(outline.htmlUrl ? { siteUrl: outline.htmlUrl } : {}),
  };
}

/**
 * Fetches the new feeds at once. The first poll of an outline that was a web page moves it to its feed,
 * which is fetched too; a web page that links to no feed is no feed: the feed made for it is removed (no
 * row is left of it) and its outline fails.
 */
async function fetchNew(
  deps: SubscriptionDeps,
  outlines: readonly OpmlFeed[],
  outcomes: Outcome[],
  options: OpmlImportOptions,
): Promise<void> {
  const fresh = outcomes.flatMap((o, i) =>
    o.kind === 'followed' && o.isNew ? [{ index: i, id: o.feedId }] : [],
  );
  if (fresh.length === 0) return;
  const total = fresh.length;
  const onProgress = ({ done }: { done: number }) => options.onProgress?.({ phase: 'fetching', done, total });
  await pollOnce(deps.poll, { feedIds: fresh.map((f) => f.id), force: true, onProgress });
  const moved = [];
  for (const { index, id } of fresh) {
    const feed = await deps.store.feeds.get(id);
    // a URL that is not there (404, 410) is refused as `add` refuses it, and leaves nothing behind; a
    // failure that may pass (a timeout, a 500) keeps the feed, to be polled again
    if (feed && (feed.status === 'gone' || (feed.status === 'fetch_error' && feed.httpStatus === 404))) {
      await deps.store.feeds.remove(id);
      outcomes[index] = {
        kind: 'failed',
        reason: feed.message ?? `fetch: the server answered ${feed.httpStatus}`,
      };
      continue;
    }
    // a title the outline gives that the feed does not is the person's own (export writes theirs):
    // kept as their title, so that import, export, import loses nothing
    const wanted = outlines[index]?.title;
    if (feed && feed.status !== 'parse_error' && wanted && feed.title !== undefined && feed.title !== wanted)
      await updateFeedSettings(deps, id, { title: wanted }, { isAdmin: false });
    if (feed?.status !== 'parse_error') continue;
    if (feed.url !== feed.originalUrl) moved.push(id);
    else if (feed.diagnostics.some((d) => d.code === 'document.html')) {
      // a page whose feed tidings has already (another person follows it) was not moved onto it: the
      // outline's channels follow that feed instead, as `add` of the page would
      const linked = await existingLinkedFeed(deps, feed.url);
      const channels = linked ? await channelsFollowing(deps.store, id) : [];
      await deps.store.feeds.remove(id);
      outcomes[index] = linked
        ? await followInstead(deps, linked, channels)
        : { kind: 'failed', reason: 'not a feed: a web page that links to no feed' };
    }
  }
  if (moved.length > 0) await pollOnce(deps.poll, { feedIds: moved, force: true });
}

/** The stored feed a web page links to first, when tidings has it; undefined for a page that links to none. */
async function existingLinkedFeed(deps: SubscriptionDeps, url: string): Promise<StoredFeed | undefined> {
  const found = await discover(deps.poll, url);
  const target = found.kind === 'page' ? found.feeds[0]?.url : undefined;
  return target === undefined ? undefined : deps.store.feeds.findByUrl(target);
}

/** Follows a stored feed in these channels, unless one of the person's channels follows it already. */
async function followInstead(
  deps: SubscriptionDeps,
  feed: StoredFeed,
  channels: Channel[],
): Promise<Outcome> {
  const following = await channelsFollowing(deps.store, feed.id);
  if (following.length > 0)
    return {
      kind: 'already-followed',
      reason: `already followed in ${following.map((c) => c.name).join(', ')}`,
    };
  const now = deps.now().toISOString();
  for (const channel of channels) await deps.store.channels.subscribe(channel.id, feed.id, now);
  return { kind: 'followed', feedId: feed.id, isNew: false };
}

/** The subscriptions as OPML 2.0: one outline folder per channel, nested for "Parent / Child" names. */
export async function exportOpml(deps: SubscriptionDeps): Promise<string> {
  const { store } = deps;
  const [channels, subscriptions] = await Promise.all([
    store.channels.list(),
    store.channels.listSubscriptions(),
  ]);
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
