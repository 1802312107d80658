import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { chunk, fromDbBool, fromJson, toIso } from '../values.js';
import type { QueuedMessage } from './types.js';

type Db = Kysely<Database> | Transaction<Database>;

// 7 columns a row: 200 rows stay far below either database's bound-variable limit.
const OUTBOX_CHUNK = 200;
const FEED_CHUNK = 500;

/**
 * Queues messages, due at once, in the transaction (or connection) the caller holds: written with what
 * caused them, they are sent once that commits, or never when it rolls back.
 */
export async function enqueueMessages(
  db: Db,
  messages: readonly QueuedMessage[],
  now: string,
): Promise<void> {
  const at = toIso(now, 'now');
  const rows = messages.map((message) => ({
    destination_id: message.destinationId,
    event_type: message.eventType,
    payload: message.payload,
    created_at: at,
    next_attempt_at: at,
    attempts: 0,
  }));
  for (const part of chunk(rows, OUTBOX_CHUNK)) await db.insertInto('outbox').values(part).execute();
}

/** A destination that hears of a feed: its id and the event types it takes (undefined: every type). */
export interface Listener {
  destinationId: number;
  events: readonly string[] | undefined;
}

/**
 * The destinations of every user who follows each of these feeds (subscriptions -> channels.user_id), by
 * feed, each once however many of the user's channels follow the feed. A subscription the user paused
 * does not count: they chose not to hear from that feed for now.
 */
export async function listenersOf(db: Db, feedIds: readonly number[]): Promise<Map<number, Listener[]>> {
  const byFeed = new Map<number, Listener[]>();
  for (const part of chunk([...new Set(feedIds)], FEED_CHUNK)) {
    const rows = await db
      .selectFrom('subscriptions')
      .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
      .innerJoin('destinations', 'destinations.user_id', 'channels.user_id')
      .select(['subscriptions.feed_id', 'destinations.id', 'destinations.events', 'subscriptions.paused'])
      .where('subscriptions.feed_id', 'in', part)
      .orderBy('subscriptions.feed_id')
      .orderBy('destinations.id')
      .execute();
    for (const row of rows) {
      if (fromDbBool(row.paused)) continue;
      const list = byFeed.get(row.feed_id) ?? [];
      if (list.some((listener) => listener.destinationId === row.id)) continue;
      list.push({ destinationId: row.id, events: eventsOf(row.events) });
      byFeed.set(row.feed_id, list);
    }
  }
  return byFeed;
}

/** The event types a destination's `events` column lists; undefined (every type) when NULL or unreadable. */
export function eventsOf(text: string | null): string[] | undefined {
  if (text === null) return undefined;
  const list = fromJson<unknown>(text, null);
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : undefined;
}

/** True when a destination with these event types takes `type`. */
export function takes(events: readonly string[] | undefined, type: string): boolean {
  return events === undefined || events.includes(type);
}
