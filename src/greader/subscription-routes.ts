import type { Context } from 'hono';
import { readRequestParams } from '../auth/request.js';
import { appFeeds } from '../reading/app-feeds.js';
import type { ServerDeps } from '../server/deps.js';
import { DEFAULT_CHANNEL_NAME, defaultChannel } from '../subscriptions/index.js';
import { feedStreamId, labelName, labelStreamId, parseStreamId, STARRED } from './ids.js';
import { FollowError, followFeed, renameFeed, setFeedFolder, unfollowFeed } from './subscriptions-port.js';

// Subscriptions and folders. Folders are tidings channels (Microsub's notifications channel is left
// out); following, unfollowing, renaming and moving go through subscriptions-port.ts.

/** GET subscription/list */
export async function subscriptionList(c: Context, deps: ServerDeps): Promise<Response> {
  const view = await appFeeds(deps.store);
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
      htmlUrl: feed.siteUrl ?? feed.url,
      iconUrl: feed.iconUrl ?? '',
      firstitemmsec: String(Date.parse(feed.createdAt)),
    }));
  return c.json({ subscriptions });
}

/** GET tag/list: the starred state and every folder. */
export async function tagList(c: Context, deps: ServerDeps): Promise<Response> {
  const view = await appFeeds(deps.store);
  const folders = view.folders.map((f) => ({ id: labelStreamId(f.name), type: 'folder' }));
  return c.json({ tags: [{ id: STARRED }, ...folders] });
}

/** POST subscription/quickadd with `quickadd` (a feed or page URL): followed in the first channel. */
export async function quickAdd(c: Context, deps: ServerDeps): Promise<Response> {
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
    if (error instanceof FollowError) return c.json({ numResults: 0, query: url, error: error.message }, 400);
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
 * (`t` renames, `a` adds a folder, `r` removes one, both move); `s` may be repeated.
 */
export async function subscriptionEdit(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const action = params.one('ac') ?? 'edit';
  const title = params.one('t')?.trim() || undefined;
  const add = labelName(params.one('a'));
  const remove = labelName(params.one('r'));
  for (const stream of params.all('s')) {
    const ref = parseStreamId(stream);
    if (ref.kind !== 'feed') return c.text(`greader: ${stream.slice(0, 200)} is not a feed stream`, 400);
    if (action === 'subscribe') {
      const url = httpUrl(ref.url ?? '');
      if (url === undefined) return c.text('greader: subscribe needs s=feed/<URL>', 400);
      try {
        await followFeed(deps, url, add, title);
      } catch (error) {
        if (error instanceof FollowError) return c.text(error.message, 400);
        throw error;
      }
      continue;
    }
    const feed =
      ref.id !== undefined ? await deps.store.getFeed(ref.id) : await deps.store.findFeedByUrl(ref.url ?? '');
    if (feed === undefined) return c.text(`greader: no feed ${stream.slice(0, 200)}`, 404);
    if (action === 'unsubscribe') await unfollowFeed(deps, feed.id);
    else if (action === 'edit') {
      if (title) await renameFeed(deps, feed.id, title);
      if (add || remove) await setFeedFolder(deps, feed.id, remove, add);
    } else return c.text(`greader: unknown ac=${action.slice(0, 50)}`, 400);
  }
  return c.text('OK');
}

/** POST rename-tag: `s` (or `t`) the folder, `dest` its new name. */
export async function renameTag(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const from = labelName(params.one('s') ?? params.one('t'));
  const to = labelName(params.one('dest'));
  const channel = (await deps.store.listChannels()).find(
    (ch) => ch.name === from && ch.uid !== 'notifications',
  );
  if (channel === undefined || to === undefined)
    return c.text('greader: rename-tag needs a folder and dest', 400);
  await deps.store.renameChannel(channel.uid, to);
  return c.text('OK');
}

/**
 * POST disable-tag: `s` (or `t`) the folder to delete. A feed that only this folder follows moves to
 * the default channel (Home) (Google Reader moved such feeds to the top level, which tidings has not).
 */
export async function disableTag(c: Context, deps: ServerDeps): Promise<Response> {
  const params = await readRequestParams(c);
  const name = labelName(params.one('s') ?? params.one('t'));
  const channels = await deps.store.listChannels();
  const channel = channels.find((ch) => ch.name === name && ch.uid !== 'notifications');
  if (channel === undefined) return c.text('greader: no such folder', 404);
  const all = await deps.store.listSubscriptions();
  const orphans = all
    .filter((s) => s.channelId === channel.id)
    .filter((s) => !all.some((other) => other.feedId === s.feedId && other.channelId !== channel.id));
  if (orphans.length > 0) {
    const fallback = await defaultChannel(deps.store);
    const home =
      fallback.id !== channel.id
        ? fallback
        : (channels.find((ch) => ch.id !== channel.id && ch.uid !== 'notifications') ??
          (await deps.store.createChannel(DEFAULT_CHANNEL_NAME)));
    for (const s of orphans) await setFeedFolder(deps, s.feedId, channel.name, home.uid);
  }
  await deps.store.deleteChannel(channel.uid);
  return c.text('OK');
}
