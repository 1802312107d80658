import type { SSEStreamingApi } from 'hono/streaming';
import { streamSSE } from 'hono/streaming';
import type { NewEntriesEvent } from '../../poll/index.js';
import type { Filter, TimelineEntry } from '../../store/index.js';
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
 * Listeners and the timer go when the client disconnects, or when the token stops being valid (revoked):
 * the stream then ends. Streams are capped per token and in all (streams.ts): over a cap the answer is
 * 429 (this token has its streams open) or 503 (the endpoint has), not a stream.
 */
export async function eventsAction(ctx: ActionContext): Promise<Response> {
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
  const stops = [
    ctx.deps.events.onNewEntries((event) => enqueue(() => announceEntries(ctx, stream, event))),
    ctx.signals.onChanged((channelId) => enqueue(() => announceCounts(ctx, stream, [channelId]))),
  ];
  const heartbeat = setInterval(
    () => enqueue(() => stream.write(': heartbeat\n\n').then(() => undefined)),
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

async function announceEntries(
  ctx: ActionContext,
  stream: SSEStreamingApi,
  event: NewEntriesEvent,
): Promise<void> {
  const { store } = ctx.deps;
  const subscriptions = (await store.channels.listSubscriptions()).filter((s) => s.feedId === event.feedId);
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

async function announceCounts(
  ctx: ActionContext,
  stream: SSEStreamingApi,
  channelIds: number[],
): Promise<void> {
  const channels = await ctx.deps.store.channels.list();
  const uids = new Set(channels.filter((c) => channelIds.includes(c.id)).map((c) => c.uid));
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
