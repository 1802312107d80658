import type { StoredFeed } from '../model/index.js';
import {
  isRuleAction,
  MAX_RULE_QUERY_CHARS,
  parseSearchQuery,
  RULE_ACTIONS,
  type Store,
  type StoredRule,
} from '../store/index.js';
import { findChannel } from './channels.js';
import { channelsFollowing } from './feed-ref.js';

/** A rule as a person asks for it: the query, a channel by name or uid, a feed they follow, an action. */
export interface RuleRequest {
  query: string;
  channel?: string | undefined;
  feed?: StoredFeed | undefined;
  action: string;
}

/** `refused` says why: `input` for a request that cannot be a rule, `not-found` for a channel or feed of none of the person's. */
export type RuleResult =
  | { kind: 'added'; rule: StoredRule }
  | { kind: 'refused'; reason: 'input' | 'not-found'; message: string };

/**
 * Adds a rule (issue 25) for the store's user, for every front end: a query in the search syntax that
 * finds something, an action tidings knows, a channel of theirs, a feed they follow (and, with both, a
 * feed that channel follows). Each refusal says what to change.
 */
export async function addRule(store: Store, request: RuleRequest, now: string): Promise<RuleResult> {
  const refuse = (message: string, reason: 'input' | 'not-found' = 'input'): RuleResult => ({
    kind: 'refused',
    reason,
    message,
  });
  if (!isRuleAction(request.action))
    return refuse(`unknown action ${JSON.stringify(request.action)}: use one of ${RULE_ACTIONS.join(', ')}`);
  const query = request.query.trim();
  if (query.length > MAX_RULE_QUERY_CHARS)
    return refuse(`the query is longer than ${MAX_RULE_QUERY_CHARS} characters`);
  const parsed = parseSearchQuery(query);
  if (parsed.include.length === 0)
    return refuse('the query needs at least one word to find (words, "a phrase", -word)');
  let channelId: number | undefined;
  if (request.channel !== undefined) {
    const channel = await findChannel(store, request.channel);
    if (channel === undefined)
      return refuse(`there is no channel ${JSON.stringify(request.channel)}`, 'not-found');
    channelId = channel.id;
  }
  if (request.feed !== undefined) {
    const following = await channelsFollowing(store, request.feed.id);
    if (following.length === 0) return refuse(`you do not follow ${request.feed.url}`, 'not-found');
    if (channelId !== undefined && !following.some((channel) => channel.id === channelId))
      return refuse(`the channel ${JSON.stringify(request.channel)} does not follow ${request.feed.url}`);
  }
  const rule = await store.rules.add(
    { query, channelId, feedId: request.feed?.id, action: request.action },
    now,
  );
  return { kind: 'added', rule };
}
