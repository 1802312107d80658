import type { Transaction } from 'kysely';
import { plural } from '../../model/index.js';
import type { Database } from '../schema.js';
import type { FeedEvent } from '../types.js';
import { NOTIFICATIONS_UID } from '../types.js';
import { chunk, fromDbBool } from '../values.js';

// The Microsub notifications channel is every user's alert destination (issue 25): each feed-health event
// becomes one entry of the feed it is about, with a guid of its own kind (ALERT_GUID_PREFIX), and a row in
// the notifications channel of each user who follows the feed, through notified_entries (as a notify rule's
// match). Such entries are never added to the channels that follow the feed (channel-entries.ts), so only
// the notifications channels show them, and the doctor expects them there only.

/** The guid prefix of alert entries: no feed's own guid starts so (a feed's would be a URL or its own). */
export const ALERT_GUID_PREFIX = 'tidings:alert:';

const HEADLINES: Record<FeedEvent['type'], string> = {
  'feed.failing': 'Feed failing',
  'feed.recovered': 'Feed recovered',
  'feed.silent': 'Feed silent',
  'feed.gone': 'Feed gone',
  'feed.moved': 'Feed moved',
};

/** The event as an entry's title and text: what happened, why, and where in the document. */
function alertText(event: FeedEvent): { title: string; text: string } {
  const name = event.feed.title ?? event.feed.url;
  const lines = [event.message];
  const d = event.diagnostic;
  if (d !== undefined) {
    const where = [
      d.line === undefined ? '' : `line ${d.line}`,
      d.column === undefined ? '' : `column ${d.column}`,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`${where}${where ? ' ' : ''}(${d.code})`);
    if (d.excerpt !== undefined) lines.push(d.excerpt);
  }
  if (event.type === 'feed.failing')
    lines.push(`${plural(event.failures, 'failed poll')} in a row since ${event.since}.`);
  if (event.newUrl !== undefined) lines.push(`New address: ${event.newUrl}`);
  return { title: `${HEADLINES[event.type]}: ${name}`, text: lines.join('\n') };
}

/**
 * Stores each event as an alert entry of its feed and records it for the notifications channel of every
 * user who follows the feed (a paused subscription does not count, as for the other destinations).
 * Returns the ids of the entries stored, whose channel rows the caller adds (addNotified).
 */
export async function writeAlertEntries(
  trx: Transaction<Database>,
  events: readonly FeedEvent[],
): Promise<number[]> {
  if (events.length === 0) return [];
  const channels = await notificationChannels(
    trx,
    events.map((event) => event.feed.id),
  );
  const ids: number[] = [];
  for (const event of events) {
    const targets = channels.get(event.feed.id) ?? [];
    if (targets.length === 0) continue;
    const { title, text } = alertText(event);
    const row = await trx
      .insertInto('entries')
      .values({
        feed_id: event.feed.id,
        guid: `${ALERT_GUID_PREFIX}${event.type}:${event.at}`,
        url: event.link ?? null,
        title,
        summary: null,
        content_html: null,
        content_text: text,
        published: event.at,
        updated: null,
        sort_at: event.at,
        authors: '[]',
        // the event type, for clients that sort the notifications channel by it (jf2 `category`)
        categories: JSON.stringify([event.type]),
        enclosures: '[]',
        extra: '{}',
        content_hash: `${event.type}:${event.at}`,
        url_key: null,
        author_url: null,
        first_seen_at: event.at,
        changed_at: event.at,
      })
      .onConflict((conflict) => conflict.columns(['feed_id', 'guid']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row === undefined) continue;
    const id = Number(row.id);
    ids.push(id);
    await trx
      .insertInto('notified_entries')
      .values(
        targets.map((channelId) => ({
          channel_id: channelId,
          entry_id: id,
          rule_id: null,
          created_at: event.at,
        })),
      )
      .onConflict((conflict) => conflict.columns(['channel_id', 'entry_id']).doNothing())
      .execute();
  }
  return ids;
}

/** The notifications channel of each user who follows each feed (unpaused), by feed. */
async function notificationChannels(
  trx: Transaction<Database>,
  feedIds: readonly number[],
): Promise<Map<number, number[]>> {
  const byFeed = new Map<number, number[]>();
  for (const part of chunk([...new Set(feedIds)], 500)) {
    const rows = await trx
      .selectFrom('subscriptions')
      .innerJoin('channels as followed', 'followed.id', 'subscriptions.channel_id')
      .innerJoin('channels as box', (join) =>
        join.onRef('box.user_id', '=', 'followed.user_id').on('box.uid', '=', NOTIFICATIONS_UID),
      )
      .select(['subscriptions.feed_id', 'subscriptions.paused', 'box.id'])
      .where('subscriptions.feed_id', 'in', part)
      .execute();
    for (const row of rows) {
      if (fromDbBool(row.paused)) continue;
      const list = byFeed.get(row.feed_id) ?? [];
      if (!list.includes(Number(row.id))) list.push(Number(row.id));
      byFeed.set(row.feed_id, list);
    }
  }
  return byFeed;
}
