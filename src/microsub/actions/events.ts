import type { SSEStreamingApi } from 'hono/streaming';
import { streamSSE } from 'hono/streaming';
import type { NewEntriesEvent } from '../../poll/index.js';
import type { Filter, Store, TimelineEntry } from '../../store/index.js';
import { channelList } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { withFeedIcon } from '../feed-icon.js';
import { timelineItem } from '../jf2.js';

const DEFAULT_HEARTBEAT_MS = 30_000;

/**
 * `action=events`: server-sent events. The spec's streaming API is still a brainstorm
 * (indieweb/microsub#20), so the event names are tidings' own, documented in docs/microsub.md:
 * - `new-item`, data `{"channel": uid, "item": jf2}`, for each new entry in each channel that follows
 *   its feed, unless muted or blocked there;
 * - `change-channel`, data `{"channel": {"uid", "name", "unread"}}`, when a channel's unread count may
 *   have changed (new entries, mark_read, follow ...);
 * - a comment line every 30 s, so that proxies keep the connection open.
 * A stream is its token's user's: it hears every user's changes and new entries and announces only those
 * of the user's channels (channel ids are global; OwnChannels tells them apart).
 * Listeners and the timer go when the client disconnects, or when the token stops being valid (revoked):
 * the stream then ends. Streams are capped per token and in all (streams.ts): over a cap the answer is
 * 429 (this token has its streams open) or 503 (the endpoint has), not a stream.
 */
export async function eventsAction(ctx: ActionContext): Promise<Response> {
  // HEAD (answered by this GET route) reads no body: a stream opened for it would never hear its client
  // go, and would hold its place among the capped streams until a restart. The headers alone, no stream.
  if (ctx.hono.req.method === 'HEAD')
    return new Response(null, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    });
  let end = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  let revoked = false;
  const place = ctx.streams.open(ctx.grant.tokenKey, ctx.isTokenValid, () => {
    revoked = true;
    end();
  });
  if (place === 'token' || place === 'total') return refusal(ctx, place);
  return streamSSE(ctx.hono, async (stream) => {
    try {
      stream.onAbort(end);
      await serve(ctx, stream, ended);
      if (revoked) await stream.write(': the access token was revoked\n\n');
    } finally {
      place.release();
    }
  });
}

function refusal(ctx: ActionContext, cap: 'token' | 'total'): Response {
  const { perToken, total } = ctx.streams.limits;
  if (cap === 'token') {
    const description = `microsub: this token has ${perToken} event streams open already; close one first`;
    return ctx.hono.json({ error: 'too_many_requests', error_description: description }, 429);
  }
  ctx.hono.header('retry-after', '30');
  const description = `microsub: ${total} event streams are open already; try again later`;
  return ctx.hono.json({ error: 'temporarily_unavailable', error_description: description }, 503);
}

/** Sends the stream's events until `ended`; then its listeners and timer go. */
async function serve(ctx: ActionContext, stream: SSEStreamingApi, ended: Promise<void>): Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  // one write at a time, in order; a failed announcement is logged and the stream goes on
  const enqueue = (task: () => Promise<void>) => {
    queue = queue
      .then(task)
      .catch((err: unknown) => ctx.deps.log.warn({ err }, 'microsub: an event could not be sent'));
  };
  const own = new OwnChannels(ctx.deps.store);
  const stops = [
    ctx.deps.events.onNewEntries((event) => enqueue(() => announceEntries(ctx, stream, event))),
    // every user's changes are heard here (channel ids are global): only the user's are announced
    ctx.signals.onChanged((channelId) =>
      enqueue(async () => {
        if (await own.has(channelId)) await announceCounts(ctx, stream, [channelId]);
      }),
    ),
  ];
  const heartbeat = setInterval(
    () =>
      enqueue(async () => {
        await stream.write(': heartbeat\n\n');
        own.forget();
      }),
    ctx.options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
  );
  try {
    await stream.write(': tidings microsub events\n\n');
    await ended;
  } finally {
    clearInterval(heartbeat);
    for (const stop of stops) stop();
  }
}

/**
 * Which channel ids are the stream's user's. Channel ids are global and each is one user's for good;
 * they grow and are never reused (AUTOINCREMENT, sequences). So an id at or below the highest id
 * checked that is not the user's is another user's, and only a higher one (a channel made since, the
 * user's or not) needs the user's channels read again. `forget` makes the next unknown id read them
 * again whatever it is: two channels made at once may commit in the other order (PostgreSQL).
 */
class OwnChannels {
  readonly #store: Store;
  #ids: Set<number> | undefined;
  #checkedUpTo = 0;

  constructor(store: Store) {
    this.#store = store;
  }

  async has(channelId: number): Promise<boolean> {
    if (this.#ids?.has(channelId)) return true;
    if (this.#ids !== undefined && channelId <= this.#checkedUpTo) return false;
    const ids = new Set((await this.#store.channels.list()).map((channel) => channel.id));
    this.#ids = ids;
    this.#checkedUpTo = Math.max(this.#checkedUpTo, channelId, ...ids);
    return ids.has(channelId);
  }

  forget(): void {
    this.#checkedUpTo = 0;
  }
}

/**
 * Announces the entries of a poll in each of the user's channels that follows their feed (none when
 * only other users follow it), then those channels' counts.
 */
async function announceEntries(
  ctx: ActionContext,
  stream: SSEStreamingApi,
  event: NewEntriesEvent,
): Promise<void> {
  const { store } = ctx.deps;
  const subscriptions = await store.channels.listSubscriptionRefs({ feedIds: [event.feedId] });
  if (subscriptions.length === 0) return;
  const channels = new Map((await store.channels.list()).map((c) => [c.id, c]));
  const touched: number[] = [];
  const iconUrl = await ctx.deps.feedIconUrls(ctx.hono);
  for (const subscription of subscriptions) {
    const channel = channels.get(subscription.channelId);
    if (!channel) continue;
    const rules = await rulesOf(ctx, channel.id);
    const entries = await store.reading.entriesById(channel.id, event.entryIds);
    for (const entry of entries.filter((e) => !isFiltered(e, rules))) {
      await stream.writeSSE({
        event: 'new-item',
        data: JSON.stringify({ channel: channel.uid, item: timelineItem(withFeedIcon(entry, iconUrl)) }),
      });
    }
    touched.push(channel.id);
  }
  if (touched.length > 0) await announceCounts(ctx, stream, touched);
}

/** Announces the counts of these channels of the user's (others' are not in the user's list). */
async function announceCounts(
  ctx: ActionContext,
  stream: SSEStreamingApi,
  channelIds: number[],
): Promise<void> {
  const channels = await ctx.deps.store.channels.list();
  const uids = new Set(channels.filter((c) => channelIds.includes(c.id)).map((c) => c.uid));
  if (uids.size === 0) return;
  for (const channel of (await channelList(ctx.deps.store)).filter((c) => uids.has(c.uid))) {
    await stream.writeSSE({ event: 'change-channel', data: JSON.stringify({ channel }) });
  }
}

async function rulesOf(ctx: ActionContext, channelId: number): Promise<Filter[]> {
  const { store } = ctx.deps;
  // a channel's rules come with the global ones
  const lists = await Promise.all([
    store.filters.list('mute', channelId),
    store.filters.list('block', channelId),
  ]);
  return lists.flat();
}

/**
 * The rule the store applies to timelines (store/visibility.ts), for entries fetched by id: an author
 * URL, feed URL or site URL exactly equal to a rule's URL.
 */
function isFiltered(entry: TimelineEntry, rules: readonly Filter[]): boolean {
  const urls = [entry.authorUrl, entry.feed.url, entry.feed.siteUrl];
  return rules.some((rule) => urls.includes(rule.url));
}
