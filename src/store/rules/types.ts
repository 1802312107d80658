// What the rules area takes and gives (issue 25): a rule is a saved search that acts on new entries.

export const RULE_ACTIONS = ['read', 'save', 'hide', 'notify'] as const;

/**
 * What a rule does to a matching entry when it is first stored: `read` stores it read, `save` saves it,
 * `hide` stores it removed (never shown: Miniflux's block), `notify` sends entry.matched to the user's
 * destinations and puts the entry into their Microsub notifications channel.
 */
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** True when `name` is a rule action. */
export function isRuleAction(name: string): name is RuleAction {
  return (RULE_ACTIONS as readonly string[]).includes(name);
}

/** A rule to add. */
export interface NewRule {
  /** The search syntax: words, "phrases", -term. */
  query: string;
  /** Only entries of feeds this channel (the user's) follows; undefined: every channel. */
  channelId?: number | undefined;
  /** Only this feed's entries; undefined: every feed. */
  feedId?: number | undefined;
  action: RuleAction;
}

/** A user's rule. */
export interface StoredRule {
  id: number;
  userId: number;
  query: string;
  channelId?: number;
  feedId?: number;
  action: RuleAction;
  createdAt: string;
}

/** The entry.matched event a notify rule sends (its JSON is the webhook's body). */
export interface EntryMatchedEvent {
  type: 'entry.matched';
  at: string;
  rule: { id: number; query: string; action: RuleAction };
  entry: {
    id: number;
    title: string | null;
    url: string | null;
    published: string | null;
    feed: { id: number; url: string; title: string | null; siteUrl: string | null };
  };
}
