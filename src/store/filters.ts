import { type Expression, expressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import * as shown from './channel-entries.js';
import type { Filter, FilterRule } from './reader.js';
import type { Database, FilterTable } from './schema.js';
import { toIso } from './values.js';

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
function isRule(rule: FilterRule): Expression<SqlBool> {
  return eb.and([
    eb('kind', '=', rule.kind),
    eb('url', '=', rule.url),
    rule.channelId === undefined ? eb('channel_id', 'is', null) : eb('channel_id', '=', rule.channelId),
  ]);
}

/**
 * Adds a rule, or returns the same rule when it exists (the unique index filters_rule holds one). The
 * entries it names are hidden, and uncounted, in the same transaction.
 */
export async function addFilter(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  rule: FilterRule,
  now: string,
): Promise<Filter> {
  return db.transaction().execute(async (trx) => {
    await shown.lockRules(trx, dialect, 'exclusive');
    await insertRule(trx, rule, now);
    await shown.refreshHidden(trx, { ruleUrl: rule.url, channelId: rule.channelId });
    const row = await trx.selectFrom('filters').selectAll().where(isRule(rule)).executeTakeFirstOrThrow();
    return filterFromRow(row);
  });
}

async function insertRule(db: Kysely<Database>, rule: FilterRule, now: string): Promise<void> {
  await db
    .insertInto('filters')
    .values({
      channel_id: rule.channelId ?? null,
      kind: rule.kind,
      url: rule.url,
      created_at: toIso(now, 'now'),
    })
    // No conflict target: the unique index is on an expression (COALESCE(channel_id, 0)).
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/** Deletes a rule, showing again what no other rule hides; one that does not exist changes nothing. */
export async function removeFilter(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  rule: FilterRule,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await shown.lockRules(trx, dialect, 'exclusive');
    await trx.deleteFrom('filters').where(isRule(rule)).execute();
    await shown.refreshHidden(trx, { ruleUrl: rule.url, channelId: rule.channelId });
  });
}

/** Returns a channel's rules of one kind with the global ones, or only the global ones, oldest first. */
export async function listFilters(
  db: Kysely<Database>,
  kind: 'mute' | 'block',
  channelId?: number,
): Promise<Filter[]> {
  const rows = await db
    .selectFrom('filters')
    .selectAll()
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
