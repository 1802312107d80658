import type { Filter } from '../../store/index.js';
import { channelOrGlobal, GLOBAL } from '../channel-ref.js';
import type { ActionContext } from '../context.js';
import { requireLinkParam, safeLink } from '../links.js';

type Kind = Filter['kind'];

/**
 * The shared body of mute/unmute and block/unblock (Microsub spec, "Muting", "Blocking"): GET lists
 * the rules of a channel (or the global ones: `channel=global`, or no channel), POST adds or removes one.
 */
export async function filterAction(ctx: ActionContext, kind: Kind, adding: boolean): Promise<object> {
  const channel = await channelOrGlobal(ctx);
  const { store } = ctx.deps;
  if (ctx.httpMethod === 'GET') {
    const rules = await store.filters.list(kind, channel?.id);
    // filters.list of a channel may include the global rules: list only the ones of what was asked
    const own = rules.filter((r) => r.channelId === channel?.id);
    // a rule stored before rules had to be http(s) is not shown (the URL policy of every output)
    const shown = own.filter((r) => safeLink(r.url) !== undefined);
    return { items: shown.map((r) => ({ type: 'card', url: r.url })) };
  }
  // validated, not rewritten: the rule matches author and feed URLs as the store compares them
  const url = requireLinkParam(ctx.params.one('url'));
  const rule = { kind, url, ...(channel ? { channelId: channel.id } : {}) };
  if (adding) await store.filters.add(rule, ctx.deps.now().toISOString());
  else await store.filters.remove(rule);
  return adding ? { type: 'card', url, channel: channel?.uid ?? GLOBAL } : {};
}
