import type { Context, Hono } from 'hono';
import type { Channel } from '../../model/index.js';
import {
  countsAfter,
  feedsToRefresh,
  type MarkAllScope,
  markAllRead,
  markInChannel,
  removeFromChannel,
  saveEntry,
  undoMarkAll,
} from '../../reading/index.js';
import { ClientError } from '../client-error.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, fields, idOf, localPath, wantsJson } from '../forms.js';
import { refreshJobsOf, undoLogOf } from '../reading-jobs.js';
import { depsOf, errorPage, redirectWith, userOf } from '../render.js';
import { channelCountKey, count } from '../views/index.js';
import { drawnCounts } from './counts.js';
import { feedInChannel } from './reading-context.js';

interface ActionInput {
  c: Context<WebEnv>;
  channel: Channel;
}

/** Does the action; returns the message for the next page (or for the script), or the answer itself. */
type Action = (input: ActionInput) => Promise<string | undefined | Response>;

/**
 * POST /c/:uid/entries/:id/{read,read-up-to,remove}, /c/:uid/{read-page,read-all,refresh}, /all/read-all,
 * /undo/:token, /entries/:id/save. Each answers with a redirect back (no JavaScript) or JSON for the page's script (Accept:
 * application/json). Mark-all and read-up-to come back with `undo=TOKEN`: the page offers to undo them.
 */
export function registerEntryActions(app: Hono<WebEnv>, ctx: WebContext): void {
  const post = (path: string, action: Action) =>
    app.post(path, async (c) => {
      const { store } = depsOf(c);
      const channel = await store.channels.get(c.req.param('uid') ?? '');
      const id = c.req.param('id');
      const entryId = id === undefined ? undefined : idOf(id);
      // an entry the channel does not have is missing: acting on it (read up to it above all, whose
      // count would tell its date) changes nothing and tells nothing
      const [found] = channel && entryId ? await store.reading.entriesById(channel.id, [entryId]) : [];
      if (!channel || (id !== undefined && !found))
        return errorPage(c, ctx, 404, 'There is no such channel or entry.');
      const message = await action({ c, channel });
      if (message instanceof Response) return message;
      return answer(c, ctx, channel, message);
    });
  const entryId = (c: Context<WebEnv>) => idOf(c.req.param('id')) as number;

  post('/c/:uid/entries/:id/read', async ({ c, channel }) => {
    const read = (await field(c, 'read')) !== '0';
    await markInChannel(depsOf(c), channel, [entryId(c)], read);
    return read ? 'Marked read.' : 'Marked unread.';
  });
  post('/c/:uid/entries/:id/read-up-to', async ({ c, channel }) =>
    withUndo(c, ctx, { channel, upToEntryId: entryId(c) }),
  );
  post('/c/:uid/read-all', async ({ c, channel }) =>
    withUndo(c, ctx, { channel, feedId: idOf(await field(c, 'feed')) }),
  );
  post('/c/:uid/entries/:id/remove', async ({ c, channel }) => {
    await removeFromChannel(depsOf(c), channel, [entryId(c)]);
    return 'Removed the entry from this channel.';
  });
  post('/c/:uid/read-page', async ({ c, channel }) => {
    const ids = (await fields(c, 'ids')).map(idOf).filter((id): id is number => id !== undefined);
    await markInChannel(depsOf(c), channel, ids, true);
    return `Marked ${count(ids.length, 'entry', 'entries')} read.`;
  });
  post('/c/:uid/refresh', ({ c, channel }) => refreshChannel(c, ctx, channel));
  app.post('/all/read-all', (c) => withUndo(c, ctx, 'everything'));
  app.post('/entries/:id/save', (c) => saveEntryPost(c, ctx));
  app.post('/undo/:token', async (c) => {
    const undone = await undoMarkAll(depsOf(c), undoLogOf(ctx, userOf(c).id), c.req.param('token'));
    const back = localPath(await field(c, 'return'), '/all');
    if (undone === undefined) return redirectWith(c, ctx, back, 'That can no longer be undone.');
    return redirectWith(c, ctx, back, `Marked ${count(undone, 'entry', 'entries')} unread again.`);
  });
}

// Save (star) or unsave: one state per entry, whatever the channel, so the path names no channel (a
// saved entry's feed may be followed by none). The same use case as Microsub's and the apps' (src/reading).
async function saveEntryPost(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const id = idOf(c.req.param('id'));
  const saved = (await field(c, 'saved')) !== '0';
  const { store } = depsOf(c);
  // an entry of a feed the user neither follows nor saved is as missing (saveEntry would change nothing
  // of it, and say it did)
  const [visible] = id ? await store.sync.entries([id]) : [];
  if (!id || !visible || !(await saveEntry(store, id, saved, ctx.deps.now())))
    throw new ClientError(404, 'web: there is no such entry');
  if (wantsJson(c)) {
    const counts = drawnCounts(await countsAfter(store, [id]));
    return c.json({ ok: true, saved, savedCount: counts.saved, counts });
  }
  const back = localPath(await field(c, 'return'), '/saved');
  return redirectWith(c, ctx, back, saved ? 'Saved.' : 'No longer saved.');
}

// "Refresh now": fetch the channel's feeds (or the one shown) in the background, whatever their
// schedule; the answer is at once a page that shows the progress (refresh-jobs.ts).
async function refreshChannel(
  c: Context<WebEnv>,
  ctx: WebContext,
  channel: Channel,
): Promise<string | Response> {
  const feed = await feedInChannel(c, channel, await field(c, 'feed'));
  const feedIds = await feedsToRefresh(depsOf(c), channel, feed?.feedId);
  if (feedIds.length === 0) return 'This channel follows no feeds yet.';
  const job = refreshJobsOf(ctx, userOf(c).id).start({ uid: channel.uid, name: channel.name }, feedIds);
  if (wantsJson(c)) return c.json({ ok: true, job: job.id, url: `/refresh/${job.id}` });
  return c.redirect(`/refresh/${job.id}`, 303);
}

/**
 * Marks all read through the reading module, which keeps what changed for its undo, and sends the browser
 * back with `undo=TOKEN` in the return path, where the page offers "N entries marked read - Undo".
 * Answers the request itself.
 */
async function withUndo(c: Context<WebEnv>, ctx: WebContext, scope: MarkAllScope): Promise<Response> {
  const { token, count } = await markAllRead(depsOf(c), undoLogOf(ctx, userOf(c).id), scope);
  if (wantsJson(c)) return c.json({ ok: true, undo: token, count });
  const back = new URL(localPath(await field(c, 'return'), '/all'), 'http://tidings.invalid');
  back.searchParams.delete('undo');
  if (count > 0) back.searchParams.set('undo', token);
  return c.redirect(back.pathname + back.search, 303);
}

async function answer(
  c: Context<WebEnv>,
  ctx: WebContext,
  channel: Channel,
  message: string | undefined,
): Promise<Response> {
  if (wantsJson(c)) {
    // every count the page draws, for the page's script: the channel's, All unread's, the entry's feed's
    const id = idOf(c.req.param('id'));
    const counts = drawnCounts(await countsAfter(depsOf(c).store, id ? [id] : []));
    const unread = counts.unread[channelCountKey(channel.uid)] ?? 0;
    return c.json({ ok: true, message, channel: channel.uid, unread, counts });
  }
  const back = localPath(await field(c, 'return'), `/c/${encodeURIComponent(channel.uid)}`);
  return redirectWith(c, ctx, back, message);
}
