import type { Context } from 'hono';
import { readRequestParams } from '../http/index.js';
import type { StoredFeed } from '../model/index.js';
import { appFeeds } from '../reading/index.js';
import { channelsFollowing, DEFAULT_CHANNEL_NAME, defaultChannel } from '../subscriptions/index.js';
import type { GReaderDeps } from './deps.js';
import { feedStreamId, labelName, labelStreamId, parseStreamId, STARRED } from './ids.js';
import { siteUrlOf } from './items.js';
import { BadRequest, checkedLabel, shown, titleParam } from './params.js';
import { folderNamed, followedFeed, ownFeed } from './streams.js';
import { FollowError, followFeed, renameFeed, setFeedFolder, unfollowFeed } from './subscriptions-port.js';

// Subscriptions and folders. Folders are tidings channels, by name; Microsub's notifications channel is
// none of them, so a folder the apps call "notifications" is an ordinary channel of that name (issue
// 22: it used to land in Microsub's channel and vanish from the apps). Following, unfollowing, renaming
// and moving go through subscriptions-port.ts.

/** GET subscription/list */
export async function subscriptionList(c: Context, deps: GReaderDeps): Promise<Response> {
  const [view, iconUrl] = await Promise.all([appFeeds(deps.store), deps.feedIconUrls(c)]);
  const subscriptions = view.feeds
    .filter((feed) => view.followed.has(feed.id))
    .map((feed) => ({
      id: feedStreamId(feed.id),
      title: feed.title ?? feed.url,
      categories: (view.foldersOf.get(feed.id) ?? []).map((f) => ({
        id: labelStreamId(f.name),
        label: f.name,
      })),
      url: feed.url,
      htmlUrl: siteUrlOf(feed),
      // the stored icon from tidings itself, never the publisher's (server/feed-icons.ts)
      iconUrl: iconUrl(feed.id) ?? '',
      firstitemmsec: String(Date.parse(feed.createdAt)),
    }));
  return c.json({ subscriptions });
}

/** GET tag/list: the starred state and every folder. */
export async function tagList(c: Context, deps: GReaderDeps): Promise<Response> {
  const view = await appFeeds(deps.store);
  const folders = view.folders.map((f) => ({ id: labelStreamId(f.name), type: 'folder' }));
  return c.json({ tags: [{ id: STARRED }, ...folders] });
}

/** POST subscription/quickadd with `quickadd` (a feed or page URL): followed in the first channel. */
export async function quickAdd(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const url = httpUrl(stripFeedPrefix(params.one('quickadd') ?? ''));
  if (url === undefined)
    return c.json({ numResults: 0, error: 'greader: quickadd needs an http(s) URL' }, 400);
  try {
    const feed = await followFeed(deps, url);
    return c.json({
      numResults: 1,
      query: url,
      streamId: feedStreamId(feed.id),
      streamName: feed.title ?? feed.url,
    });
  } catch (error) {
    // a URL that is no feed, or cannot be fetched, is "no result", as FreshRSS and Miniflux answer it:
    // 200 with numResults 0 (NetNewsWire and Reeder read that as "feed not found"; a 4xx is a failed call)
    if (error instanceof FollowError) return c.json({ numResults: 0, query: url, error: error.message });
    throw error;
  }
}

function stripFeedPrefix(value: string): string {
  return value.startsWith('feed/') ? value.slice('feed/'.length) : value;
}

function httpUrl(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST subscription/edit: `ac` subscribe (with `a` a folder and `t` a title), unsubscribe, or edit
 * (`t` renames, `a` adds a folder, `r` removes one, both move; `a` alone moves a feed out of its one
 * folder, onlyFolder); `s` may be repeated. Subscribing to a
 * feed the user follows (`s=feed/<id>`, as NetNewsWire does right after quickadd) only applies `a` and
 * `t`. A feed id of a feed only other users follow is no feed, as one that does not exist.
 */
export async function subscriptionEdit(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const action = params.one('ac')?.trim() || 'edit';
  if (!['subscribe', 'unsubscribe', 'edit'].includes(action))
    throw new BadRequest(`ac must be subscribe, unsubscribe or edit, not ${shown(action)}`);
  const title = titleParam(params.one('t'));
  const add = checkedLabel(labelName(params.one('a')));
  const remove = checkedLabel(labelName(params.one('r')));
  const streams = params.all('s').filter((stream) => stream.trim() !== '');
  if (streams.length === 0) throw new BadRequest('subscription/edit needs s, a feed stream');
  for (const stream of streams) {
    const ref = parseStreamId(stream.trim());
    if (ref.kind !== 'feed') throw new BadRequest(`${shown(stream)} is not a feed stream`);
    // a feed id names one of the user's feeds only; a URL may name any feed, which it then follows
    if (action === 'subscribe') {
      const feed =
        ref.id !== undefined
          ? await ownFeed(deps.store, ref)
          : await deps.store.feeds.findByUrl(ref.url ?? '');
      await subscribe(deps, feed, ref.url, add, title);
      continue;
    }
    const feed = await followedFeed(deps.store, ref);
    if (feed === undefined) throw new BadRequest(`no feed ${shown(stream)}`, 404);
    if (action === 'unsubscribe') await unfollowFeed(deps, feed.id);
    else {
      if (title) await renameFeed(deps, feed.id, title);
      if (add || remove)
        await setFeedFolder(deps, feed.id, remove ?? (await onlyFolder(deps, feed.id, add)), add);
    }
  }
  return c.text('OK');
}

/**
 * `ac=subscribe`: a new URL is followed (in folder `add`, or the first channel); a feed followed already
 * gets the folder and title asked for and nothing else; one no channel follows any more is followed again.
 */
async function subscribe(
  deps: GReaderDeps,
  feed: StoredFeed | undefined,
  url: string | undefined,
  add: string | undefined,
  title: string | undefined,
): Promise<void> {
  const following = feed ? await channelsFollowing(deps.store, feed.id) : [];
  if (feed && following.length > 0) {
    if (add) await setFeedFolder(deps, feed.id, await onlyFolder(deps, feed.id, add), add);
    if (title) await renameFeed(deps, feed.id, title);
    return;
  }
  if (feed === undefined && url === undefined) throw new BadRequest('no such feed', 404);
  const target = httpUrl(feed?.url ?? url ?? '');
  if (target === undefined) throw new BadRequest('subscribe needs s=feed/<URL>');
  try {
    await followFeed(deps, target, add, title);
  } catch (error) {
    if (error instanceof FollowError) throw new BadRequest(error.message);
    throw error;
  }
}

/**
 * The folder a feed leaves when an app gives it folder `add` without saying which to leave (`r`): the
 * feed's one folder, when it has exactly one other than `add`. FreshRSS and Miniflux keep a feed in one
 * folder, and apps made for them add a feed with quickadd (into the default folder) and then `a=` the
 * folder the person chose (Read You with ac=edit, NetNewsWire with ac=subscribe): that is a move. A feed
 * in several folders (a person's choice) gets one more.
 */
async function onlyFolder(
  deps: GReaderDeps,
  feedId: number,
  add: string | undefined,
): Promise<string | undefined> {
  if (add === undefined) return undefined;
  const folders = (await channelsFollowing(deps.store, feedId)).filter((ch) => ch.uid !== 'notifications');
  const [only] = folders;
  if (folders.length !== 1 || only === undefined) return undefined;
  return only.name.toLowerCase() === add.toLowerCase() ? undefined : only.name;
}

/** POST rename-tag: `s` (or `t`) the folder, `dest` its new name (another folder's: the two merge). */
export async function renameTag(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const from = labelName(params.one('s') ?? params.one('t'));
  const to = checkedLabel(labelName(params.one('dest')));
  const channel = from === undefined ? undefined : await folderNamed(deps.store, from);
  if (channel === undefined || to === undefined)
    return c.text('greader: rename-tag needs a folder and dest', 400);
  // to the name of another folder: the two become one (apps know folders by name; two of one name
  // listed the name twice and its stream gave one folder's entries). Its feeds move there with their
  // read state, and the emptied folder goes.
  const other = await folderNamed(deps.store, to);
  if (other !== undefined && other.id !== channel.id) {
    const feeds = (await deps.store.channels.listSubscriptions(channel.id)).map((s) => s.feedId);
    for (const feedId of feeds) await setFeedFolder(deps, feedId, channel.name, other);
    if ((await deps.store.channels.listSubscriptions(channel.id)).length === 0)
      await deps.store.channels.delete(channel.uid);
    return c.text('OK');
  }
  await deps.store.channels.rename(channel.uid, to);
  return c.text('OK');
}

/**
 * POST disable-tag: `s` (or `t`) the folder to delete. A feed that only this folder follows moves to
 * the default channel (Home) (Google Reader moved such feeds to the top level, which tidings has not).
 */
export async function disableTag(c: Context, deps: GReaderDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const name = labelName(params.one('s') ?? params.one('t'));
  const channels = await deps.store.channels.list();
  const channel = channels.find((ch) => ch.name === name && ch.uid !== 'notifications');
  if (channel === undefined) return c.text('greader: no such folder', 404);
  const all = await deps.store.channels.listSubscriptions();
  const orphans = all
    .filter((s) => s.channelId === channel.id)
    .filter((s) => !all.some((other) => other.feedId === s.feedId && other.channelId !== channel.id));
  if (orphans.length > 0) {
    const fallback = await defaultChannel(deps.store);
    const home =
      fallback.id !== channel.id
        ? fallback
        : (channels.find((ch) => ch.id !== channel.id && ch.uid !== 'notifications') ??
          (await deps.store.channels.create(DEFAULT_CHANNEL_NAME)));
    for (const s of orphans) await setFeedFolder(deps, s.feedId, channel.name, home);
  }
  await deps.store.channels.delete(channel.uid);
  return c.text('OK');
}
