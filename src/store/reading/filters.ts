import { type Expression, expressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { changing, StoreArea } from '../area.js';
import * as shown from '../channel-entries.js';
import type { Database, FilterTable } from '../schema.js';
import type { ChangedChannels, Filter, FilterRule } from '../types.js';
import { toIso } from '../values.js';

/** The channels a mute or block rule applies to: its channel, or all for a global one. */
function channelsOf(rule: FilterRule): ChangedChannels {
  return rule.channelId === undefined ? 'all' : [rule.channelId];
}

/** The rule a row holds. */
function filterFromRow(row: Selectable<FilterTable>): Filter {
  return {
    id: row.id,
    ...(row.channel_id === null ? {} : { channelId: row.channel_id }),
    kind: row.kind,
    url: row.url,
    createdAt: row.created_at,
  };
}

const eb = expressionBuilder<Database, 'filters'>();

/** True for the row of exactly this rule (a global rule matches only a NULL channel). */
function isRule(rule: FilterRule, userId: number): Expression<SqlBool> {
  return eb.and([
    eb('user_id', '=', userId),
    eb('kind', '=', rule.kind),
    eb('url', '=', rule.url),
    rule.channelId === undefined ? eb('channel_id', 'is', null) : eb('channel_id', '=', rule.channelId),
  ]);
}

async function insertRule(
  db: Kysely<Database>,
  userId: number,
  rule: FilterRule,
  now: string,
): Promise<void> {
  await db
    .insertInto('filters')
    .values({
      user_id: userId,
      channel_id: rule.channelId ?? null,
      kind: rule.kind,
      url: rule.url,
      created_at: toIso(now, 'now'),
    })
    // No conflict target: the unique index is on an expression (COALESCE(channel_id, 0)).
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/**
 * The user's mute and block rules: an author or source URL, in one of their channels or in all of them. URLs match exactly as
 * stored: normalize them as the parser does (`new URL(url).href`) before adding a rule.
 */
export class Filters extends StoreArea {
  /**
   * Adds a rule, or returns the same rule when it exists (the unique index filters_rule holds one). The
   * entries it names are hidden, and uncounted, in the same transaction.
   */
  add(rule: FilterRule, now: string): Promise<Filter> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    return changing(this.area, channelsOf(rule), async () => {
      return db.transaction().execute(async (trx) => {
        await shown.lockRules(trx, dialect, 'exclusive');
        await insertRule(trx, userId, rule, now);
        await shown.refreshHidden(trx, { ruleUrl: rule.url, userId, channelId: rule.channelId });
        const row = await trx
          .selectFrom('filters')
          .selectAll()
          .where(isRule(rule, userId))
          .executeTakeFirstOrThrow();
        return filterFromRow(row);
      });
    });
  }

  /** Deletes a rule, showing again what no other rule hides; one that does not exist changes nothing. */
  remove(rule: FilterRule): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    const userId = this.userId;
    return changing(this.area, channelsOf(rule), async () => {
      await db.transaction().execute(async (trx) => {
        await shown.lockRules(trx, dialect, 'exclusive');
        await trx.deleteFrom('filters').where(isRule(rule, userId)).execute();
        await shown.refreshHidden(trx, { ruleUrl: rule.url, userId, channelId: rule.channelId });
      });
    });
  }

  /** Returns a channel's rules of one kind with the global ones, or only the global ones, oldest first. */
  async list(kind: 'mute' | 'block', channelId?: number): Promise<Filter[]> {
    const db = this.db;
    const rows = await db
      .selectFrom('filters')
      .selectAll()
      .where('user_id', '=', this.userId)
      .where('kind', '=', kind)
      .where((eb) =>
        channelId === undefined
          ? eb('channel_id', 'is', null)
          : eb.or([eb('channel_id', 'is', null), eb('channel_id', '=', channelId)]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(filterFromRow);
  }
}
