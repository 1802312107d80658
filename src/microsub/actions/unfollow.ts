import { unfollow } from '../../subscriptions/index.js';
import { requireChannel } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { notFound } from '../errors.js';
import { requireUrlParam } from '../links.js';

/**
 * `action=unfollow` (Microsub spec, "Unfollowing"): stops following a URL in a channel, through the
 * subscriptions module. The URL may be the feed's, the one first followed (a page), or its site's (what
 * a client remembers). `remove_entries=true` also drops the feed's entries from the channel's timeline.
 */
export async function unfollowAction(ctx: ActionContext): Promise<object> {
  const channel = await requireChannel(ctx);
  const url = requireUrlParam(ctx.params.one('url'));
  const removeEntries = isTrue(ctx.params.one('remove_entries'));
  const result = await unfollow(ctx.deps, { channel: channel.uid, url, removeEntries });
  if (result.kind === 'not-found') throw notFound(result.message);
  return {};
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}
