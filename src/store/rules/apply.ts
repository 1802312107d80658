import type { InsertObject, Transaction } from 'kysely';
import { enqueueMessages, eventsOf, type QueuedMessage, takes } from '../notify/index.js';
import { matchingEntries, parseSearchQuery } from '../reading/index.js';
import type { Database } from '../schema.js';
import { NOTIFICATIONS_UID } from '../types.js';
import { chunk, toDbBool } from '../values.js';
import type { EntryMatchedEvent, RuleAction } from './types.js';

type Dialect = 'sqlite' | 'postgres';
type EntryRow = InsertObject<Database, 'entries'>;

/** An entry a poll has just stored. */
export interface StoredNewEntry {
  id: number;
  feed_id: number;
  sort_at: string;
  guid: string;
}

/** A rule that may act on this poll's entries, with the (channel, feed) pairs of its user it reaches. */
interface ActiveRule {
  id: number;
  userId: number;
  query: string;
  action: RuleAction;
  /** Feed id -> the user's channels (in the rule's scope) that follow it. */
  channelsByFeed: Map<number, number[]>;
}

const CHUNK = 500;

/**
 * Applies the rules of every user who follows the new entries' feeds, inside the poll's transaction and
 * before the entries reach the channels (channel-entries.ts addEntries), which copy the read and removed
 * state written here: the kept counts are right from the start. Only entries stored for the first time
 * come here: a rule never acts on what was stored before it. Returns how many entries notify rules put
 * into notifications channels (their rows there are for the caller to add: addNotified).
 */
export async function applyRules(
  trx: Transaction<Database>,
  dialect: Dialect,
  inserted: readonly StoredNewEntry[],
  newRows: readonly EntryRow[],
  at: string,
): Promise<number> {
  if (inserted.length === 0) return 0;
  const rules = await activeRules(trx, [...new Set(inserted.map((entry) => entry.feed_id))]);
  if (rules.length === 0) return 0;
  const matched: { rule: ActiveRule; entries: StoredNewEntry[] }[] = [];
  for (const rule of rules) {
    const candidates = inserted.filter((entry) => rule.channelsByFeed.has(entry.feed_id));
    if (candidates.length === 0) continue;
    const found = await matchingEntries(
      trx,
      dialect,
      parseSearchQuery(rule.query),
      candidates.map((entry) => ({ id: entry.id, sortAt: entry.sort_at })),
    );
    if (found.size > 0) matched.push({ rule, entries: candidates.filter((entry) => found.has(entry.id)) });
  }
  let notified = 0;
  for (const { rule, entries } of matched) {
    switch (rule.action) {
      case 'read':
        await setStates(trx, dialect, rule, entries, at);
        break;
      case 'hide':
        await setStates(trx, dialect, rule, entries, at);
        await recordHidden(trx, rule, entries, at);
        break;
      case 'save':
        await saveEntries(trx, rule.userId, entries, at);
        break;
      case 'notify':
        notified += await notify(trx, rule, entries, newRows, at);
        break;
    }
  }
  return notified;
}

/** The rules whose user follows one of these feeds, each with the pairs its scope reaches. */
async function activeRules(trx: Transaction<Database>, feedIds: readonly number[]): Promise<ActiveRule[]> {
  const byId = new Map<number, ActiveRule>();
  for (const part of chunk(feedIds, CHUNK)) {
    const rows = await trx
      .selectFrom('rules as r')
      .innerJoin('channels as c', 'c.user_id', 'r.user_id')
      .innerJoin('subscriptions as s', 's.channel_id', 'c.id')
      .select(['r.id', 'r.user_id', 'r.query', 'r.action', 's.channel_id', 's.feed_id'])
      .where('s.feed_id', 'in', part)
      .where((eb) => eb.or([eb('r.channel_id', 'is', null), eb('r.channel_id', '=', eb.ref('s.channel_id'))]))
      .where((eb) => eb.or([eb('r.feed_id', 'is', null), eb('r.feed_id', '=', eb.ref('s.feed_id'))]))
      .orderBy('r.id')
      .execute();
    for (const row of rows) {
      const id = Number(row.id);
      const rule = byId.get(id) ?? {
        id,
        userId: Number(row.user_id),
        query: row.query,
        action: row.action,
        channelsByFeed: new Map<number, number[]>(),
      };
      byId.set(id, rule);
      const feedId = Number(row.feed_id);
      rule.channelsByFeed.set(feedId, [...(rule.channelsByFeed.get(feedId) ?? []), Number(row.channel_id)]);
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** `read` and `hide`: the entries' state in each channel of the rule's that follows their feed. */
async function setStates(
  trx: Transaction<Database>,
  dialect: Dialect,
  rule: ActiveRule,
  entries: readonly StoredNewEntry[],
  at: string,
): Promise<void> {
  const flag = rule.action === 'read' ? 'is_read' : 'is_removed';
  const rows = entries.flatMap((entry) =>
    (rule.channelsByFeed.get(entry.feed_id) ?? []).map((channelId) => ({
      channel_id: channelId,
      entry_id: entry.id,
      is_read: toDbBool(flag === 'is_read', dialect),
      is_removed: toDbBool(flag === 'is_removed', dialect),
      updated_at: at,
    })),
  );
  for (const part of chunk(rows, CHUNK))
    await trx
      .insertInto('entry_states')
      .values(part)
      .onConflict((conflict) =>
        conflict.columns(['channel_id', 'entry_id']).doUpdateSet((update) => ({
          [flag]: update.ref(`excluded.${flag}`),
          updated_at: update.ref('excluded.updated_at'),
        })),
      )
      .execute();
}

/** `hide`: the record that keeps the entries out of the user's apps as well (store/sync). */
async function recordHidden(
  trx: Transaction<Database>,
  rule: ActiveRule,
  entries: readonly StoredNewEntry[],
  at: string,
): Promise<void> {
  const rows = entries.map((entry) => ({
    user_id: rule.userId,
    entry_id: entry.id,
    rule_id: rule.id,
    created_at: at,
  }));
  for (const part of chunk(rows, CHUNK))
    await trx
      .insertInto('hidden_entries')
      .values(part)
      .onConflict((conflict) => conflict.columns(['user_id', 'entry_id']).doNothing())
      .execute();
}

async function saveEntries(
  trx: Transaction<Database>,
  userId: number,
  entries: readonly StoredNewEntry[],
  at: string,
): Promise<void> {
  const rows = entries.map((entry) => ({ user_id: userId, entry_id: entry.id, saved_at: at }));
  for (const part of chunk(rows, CHUNK))
    await trx
      .insertInto('saved_entries')
      .values(part)
      .onConflict((conflict) => conflict.columns(['user_id', 'entry_id']).doNothing())
      .execute();
}

/**
 * `notify`: the entries go into the user's Microsub notifications channel (notified_entries; their rows
 * there are added with the poll's other rows) and entry.matched to each destination of the user's that
 * takes it. Returns how many entries went into the notifications channel.
 */
async function notify(
  trx: Transaction<Database>,
  rule: ActiveRule,
  entries: readonly StoredNewEntry[],
  newRows: readonly EntryRow[],
  at: string,
): Promise<number> {
  const channel = await trx
    .selectFrom('channels')
    .select('id')
    .where('user_id', '=', rule.userId)
    .where('uid', '=', NOTIFICATIONS_UID)
    .executeTakeFirst();
  let notified = 0;
  if (channel !== undefined) {
    notified = entries.length;
    const rows = entries.map((entry) => ({
      channel_id: Number(channel.id),
      entry_id: entry.id,
      rule_id: rule.id,
      created_at: at,
    }));
    for (const part of chunk(rows, CHUNK))
      await trx
        .insertInto('notified_entries')
        .values(part)
        .onConflict((conflict) => conflict.columns(['channel_id', 'entry_id']).doNothing())
        .execute();
  }
  const destinations = (
    await trx
      .selectFrom('destinations')
      .select(['id', 'events'])
      .where('user_id', '=', rule.userId)
      .orderBy('id')
      .execute()
  ).filter((destination) => takes(eventsOf(destination.events), 'entry.matched'));
  if (destinations.length === 0) return notified;
  const events = await matchedEvents(trx, rule, entries, newRows, at);
  const messages: QueuedMessage[] = events.flatMap((event) =>
    destinations.map((destination) => ({
      destinationId: Number(destination.id),
      eventType: event.type,
      payload: JSON.stringify(event),
    })),
  );
  await enqueueMessages(trx, messages, at);
  return notified;
}

/** The entry.matched event of each entry, with its feed as the alerts name feeds. */
async function matchedEvents(
  trx: Transaction<Database>,
  rule: ActiveRule,
  entries: readonly StoredNewEntry[],
  newRows: readonly EntryRow[],
  at: string,
): Promise<EntryMatchedEvent[]> {
  const feedIds = [...new Set(entries.map((entry) => entry.feed_id))];
  const feeds = new Map(
    (
      await trx
        .selectFrom('feeds')
        .select(['id', 'url', 'title', 'site_url'])
        .where('id', 'in', feedIds)
        .execute()
    ).map((feed) => [
      Number(feed.id),
      { id: Number(feed.id), url: feed.url, title: feed.title ?? null, siteUrl: feed.site_url ?? null },
    ]),
  );
  const rowOf = new Map(newRows.map((row) => [`${row.feed_id} ${row.guid}`, row]));
  return entries.flatMap((entry) => {
    const feed = feeds.get(entry.feed_id);
    if (feed === undefined) return [];
    const row = rowOf.get(`${entry.feed_id} ${entry.guid}`);
    return [
      {
        type: 'entry.matched' as const,
        at,
        rule: { id: rule.id, query: rule.query, action: rule.action },
        entry: {
          id: entry.id,
          title: (row?.title as string | null | undefined) ?? null,
          url: (row?.url as string | null | undefined) ?? null,
          published: (row?.published as string | null | undefined) ?? null,
          feed,
        },
      },
    ];
  });
}
