import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ChannelCount, ChannelSummary } from './reader.js';
import { channelFromRow } from './rows.js';
import type { Database } from './schema.js';

// Reading the kept counts: a sum over a channel's (channel, feed) rows, never over its entries.

/** SQL: the channel's unread count, the sum of its (channel, feed) rows (NULL when it has none). */
function channelUnread(outer: ExpressionBuilder<Database, 'channels'>) {
  return outer
    .selectFrom('unread_counts')
    .select((count) => count.fn.sum<number | string>('unread_counts.unread').as('unread'))
    .whereRef('unread_counts.channel_id', '=', 'channels.id')
    .as('unread');
}

/** Every channel's unread count, in channel order (0 for a channel without unread entries). */
export async function unreadCounts(db: Kysely<Database>): Promise<ChannelCount[]> {
  const rows = await db
    .selectFrom('channels')
    .select((outer) => ['channels.id', channelUnread(outer)])
    .orderBy('channels.position')
    .orderBy('channels.id')
    .execute();
  return rows.map((row) => ({ channelId: row.id, unread: Number(row.unread ?? 0) }));
}

/**
 * Every channel in order with its unread count and how many feeds it follows, in one statement: the
 * reader's sidebar and Microsub's `channels` ask it on every request.
 */
export async function channelSummaries(db: Kysely<Database>): Promise<ChannelSummary[]> {
  const rows = await db
    .selectFrom('channels')
    .selectAll('channels')
    .select((outer) => [
      channelUnread(outer),
      outer
        .selectFrom('subscriptions')
        .select((count) => count.fn.countAll<number | string>().as('followed'))
        .whereRef('subscriptions.channel_id', '=', 'channels.id')
        .as('followed'),
    ])
    .orderBy('channels.position')
    .orderBy('channels.id')
    .execute();
  return rows.map((row) => ({
    ...channelFromRow(row),
    unread: Number(row.unread ?? 0),
    followed: Number(row.followed ?? 0),
  }));
}
