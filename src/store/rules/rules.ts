import type { Selectable } from 'kysely';
import { StoreArea } from '../area.js';
import { parseSearchQuery } from '../reading/index.js';
import type { RuleTable } from '../schema.js';
import { StoreError } from '../store-error.js';
import { toIso } from '../values.js';
import type { NewRule, StoredRule } from './types.js';

/** The longest query a rule keeps: a search box's worth. */
export const MAX_RULE_QUERY_CHARS = 500;

export function ruleFromRow(row: Selectable<RuleTable>): StoredRule {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    query: row.query,
    ...(row.channel_id === null ? {} : { channelId: Number(row.channel_id) }),
    ...(row.feed_id === null ? {} : { feedId: Number(row.feed_id) }),
    action: row.action,
    createdAt: row.created_at,
  };
}

/**
 * Rules (issue 25): each user's saved searches that act on new entries. Adding or removing one changes
 * only what arrives later; the polls apply them (apply.ts).
 */
export class Rules extends StoreArea {
  /** Adds a rule for the area's user. A query with no word to find, or a channel not theirs, is refused. */
  async add(rule: NewRule, now: string): Promise<StoredRule> {
    const query = rule.query.trim();
    if (query.length > MAX_RULE_QUERY_CHARS)
      throw new StoreError('invalid', `store: a rule's query is at most ${MAX_RULE_QUERY_CHARS} characters`);
    const parsed = parseSearchQuery(query);
    if (parsed.include.length === 0)
      throw new StoreError('invalid', 'store: a rule needs a query with at least one word');
    if (rule.channelId !== undefined) {
      const channel = await this.db
        .selectFrom('channels')
        .select('id')
        .where('id', '=', rule.channelId)
        .where('user_id', '=', this.userId)
        .executeTakeFirst();
      if (channel === undefined) throw new StoreError('not_found', 'store: no such channel');
    }
    const row = await this.db
      .insertInto('rules')
      .values({
        user_id: this.userId,
        query,
        channel_id: rule.channelId ?? null,
        feed_id: rule.feedId ?? null,
        action: rule.action,
        created_at: toIso(now, 'now'),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return ruleFromRow(row);
  }

  /** The user's rules, oldest first. */
  async list(): Promise<StoredRule[]> {
    const rows = await this.db
      .selectFrom('rules')
      .selectAll()
      .where('user_id', '=', this.userId)
      .orderBy('id')
      .execute();
    return rows.map(ruleFromRow);
  }

  /** The user's rule `id`; undefined when there is none or it is another user's. */
  async get(id: number): Promise<StoredRule | undefined> {
    const row = await this.db
      .selectFrom('rules')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', this.userId)
      .executeTakeFirst();
    return row === undefined ? undefined : ruleFromRow(row);
  }

  /** Removes the user's rule; what it did to entries already stored stays. False when it is not theirs. */
  async remove(id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('rules')
      .where('id', '=', id)
      .where('user_id', '=', this.userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
