import type { Selectable, Transaction, Updateable } from 'kysely';
import { StoreArea } from '../area.js';
import type { Database, DestinationTable, OutboxTable } from '../schema.js';
import { StoreError } from '../store-error.js';
import type { Dialect } from '../types.js';
import { rowCount, toDbBool, toIso } from '../values.js';
import { enqueueMessages, eventsOf } from './outbox.js';
import type {
  EventType,
  NewDestination,
  OutboxClaim,
  OutboxCounts,
  OutboxItem,
  OutboxRecord,
  QueuedMessage,
  StoredDestination,
} from './types.js';

/** The destination a row holds; NULL columns become absent fields. */
function destinationFromRow(row: Selectable<DestinationTable>): StoredDestination {
  const events = eventsOf(row.events);
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    target: row.target,
    ...(row.secret === null ? {} : { secret: row.secret }),
    ...(events === undefined ? {} : { events: events as EventType[] }),
    ...(row.digest === null ? {} : { digest: row.digest }),
    createdAt: row.created_at,
    ...(row.last_ok_at === null ? {} : { lastOkAt: row.last_ok_at }),
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.last_error_at === null ? {} : { lastErrorAt: row.last_error_at }),
    ...(row.failing_since === null ? {} : { failingSince: row.failing_since }),
  };
}

function recordFromRow(row: Selectable<OutboxTable>): OutboxRecord {
  return {
    id: row.id,
    destinationId: row.destination_id,
    eventType: row.event_type,
    payload: row.payload,
    createdAt: row.created_at,
    ...(row.next_attempt_at === null ? {} : { nextAttemptAt: row.next_attempt_at }),
    attempts: row.attempts,
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.sent_at === null ? {} : { sentAt: row.sent_at }),
    ...(row.failed_at === null ? {} : { failedAt: row.failed_at }),
  };
}

/** The longest error text kept: an error page's body has no business in the database. */
const MAX_ERROR_CHARS = 500;

function clipError(error: string): string {
  return error.length > MAX_ERROR_CHARS ? `${error.slice(0, MAX_ERROR_CHARS - 1)}…` : error;
}

/**
 * Alerts (issue 25). Destinations are the area's user's: add, list, get and remove see only theirs. The
 * outbox is the instance's, as polling is: any process's sender sends any user's due messages (claim,
 * then mark sent or failed), so that what a process queued and could not send is sent by the next one.
 */
export class Notify extends StoreArea {
  /** Adds a destination for the area's user. */
  async add(destination: NewDestination, now: string): Promise<StoredDestination> {
    const row = await this.db
      .insertInto('destinations')
      .values({
        user_id: this.userId,
        kind: destination.kind,
        target: destination.target,
        secret: destination.secret ?? null,
        events: destination.events === undefined ? null : JSON.stringify([...new Set(destination.events)]),
        digest: destination.digest ?? null,
        created_at: toIso(now, 'now'),
        // the first digest goes a day after the destination was added
        digest_sent_at: destination.digest === undefined ? null : toIso(now, 'now'),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return destinationFromRow(row);
  }

  /** The user's destinations, oldest first. */
  async list(): Promise<StoredDestination[]> {
    const rows = await this.db
      .selectFrom('destinations')
      .selectAll()
      .where('user_id', '=', this.userId)
      .orderBy('id')
      .execute();
    return rows.map(destinationFromRow);
  }

  /** The user's destination `id`; undefined when there is none or it is another user's. */
  async get(id: number): Promise<StoredDestination | undefined> {
    const row = await this.db
      .selectFrom('destinations')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', this.userId)
      .executeTakeFirst();
    return row === undefined ? undefined : destinationFromRow(row);
  }

  /** Removes the user's destination and what it still had to send; false when it is not theirs. */
  async remove(id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('destinations')
      .where('id', '=', id)
      .where('user_id', '=', this.userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Queues messages for the user's destinations, due now. Messages caused by a poll are queued in the
   * poll's own transaction instead (feed-alerts.ts); this is for the rest.
   */
  async enqueue(messages: readonly QueuedMessage[], now: string): Promise<void> {
    const ids = [...new Set(messages.map((message) => message.destinationId))];
    if (ids.length === 0) return;
    const own = await this.db
      .selectFrom('destinations')
      .select('id')
      .where('id', 'in', ids)
      .where('user_id', '=', this.userId)
      .execute();
    if (own.length !== ids.length)
      throw new StoreError('not_found', 'store: a message names a destination the user does not have');
    await enqueueMessages(this.db, messages, now);
  }

  /**
   * Claims up to `limit` due messages of any user for the sender `workerId` until now + leaseMs, oldest
   * first, with their destinations. Nobody else claims them meanwhile: SQLite has one writer, and
   * PostgreSQL's claim skips the rows another sender is claiming (FOR UPDATE SKIP LOCKED) and re-checks
   * those it committed meanwhile. A claim that lapses (its sender died before marking the row) is taken
   * by the next claim.
   */
  async claimDue(claim: OutboxClaim): Promise<OutboxItem[]> {
    if (claim.limit <= 0) return [];
    const now = toIso(claim.now, 'now');
    const until = new Date(Date.parse(now) + claim.leaseMs).toISOString();
    let ids = this.db
      .selectFrom('outbox')
      .select('id')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(rowCount(claim.limit));
    if (this.dialect === 'postgres') ids = ids.forUpdate().skipLocked();
    const claimed = await this.db
      .updateTable('outbox')
      .set({ claimed_by: claim.workerId, claimed_until: until })
      .where('id', 'in', ids)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .returningAll()
      .execute();
    if (claimed.length === 0) return [];
    const destinations = await this.db
      .selectFrom('destinations')
      .selectAll()
      .where('id', 'in', [...new Set(claimed.map((row) => row.destination_id))])
      .execute();
    const byId = new Map(destinations.map((row) => [row.id, destinationFromRow(row)]));
    // RETURNING promises no order
    claimed.sort((a, b) => compare(a.next_attempt_at, b.next_attempt_at) || a.id - b.id);
    return claimed.flatMap((row) => {
      const destination = byId.get(row.destination_id);
      if (destination === undefined) return [];
      return [
        {
          id: row.id,
          destination,
          eventType: row.event_type,
          payload: row.payload,
          createdAt: row.created_at,
          attempts: row.attempts,
        },
      ];
    });
  }

  /**
   * Marks a message the sender claimed as sent, and its destination as working. False when the claim
   * was no longer the sender's (it lapsed and another sender took the row): the message went twice.
   */
  async markSent(id: number, workerId: string, now: string): Promise<boolean> {
    const at = toIso(now, 'now');
    // Two statements, not a transaction: the destination's health is what the page shows, the row's
    // state is what counts, and no lock is held across an await (SQLite peers in one process).
    const destinationId = await this.#endAttempt(id, workerId, { sent_at: at, next_attempt_at: null });
    if (destinationId === undefined) return false;
    await this.#recordSuccess(destinationId, at);
    return true;
  }

  /**
   * Records a failed attempt at a message the sender claimed: tried again at `retryAt`, or given up
   * (kept, marked failed) when it is undefined; the destination is failing since its first failure after
   * a success. False when the claim was no longer the sender's.
   */
  async markFailed(
    id: number,
    workerId: string,
    now: string,
    error: string,
    retryAt: string | undefined,
  ): Promise<boolean> {
    const at = toIso(now, 'now');
    const text = clipError(error);
    const destinationId = await this.#endAttempt(id, workerId, {
      next_attempt_at: retryAt === undefined ? null : toIso(retryAt, 'retryAt'),
      failed_at: retryAt === undefined ? at : null,
      last_error: text,
    });
    if (destinationId === undefined) return false;
    await this.#recordFailure(destinationId, at, text);
    return true;
  }

  /**
   * Ends an attempt at a message the sender still claims: counts it, drops the claim and sets `columns`.
   * Returns the message's destination, or undefined when the claim was no longer the sender's.
   */
  async #endAttempt(
    id: number,
    workerId: string,
    columns: Pick<Updateable<OutboxTable>, 'sent_at' | 'next_attempt_at' | 'failed_at' | 'last_error'>,
  ): Promise<number | undefined> {
    const row = await this.db
      .updateTable('outbox')
      .set((eb) => ({ ...columns, attempts: eb('attempts', '+', 1), claimed_by: null, claimed_until: null }))
      .where('id', '=', id)
      .where('claimed_by', '=', workerId)
      .where('next_attempt_at', 'is not', null)
      .returning('destination_id')
      .executeTakeFirst();
    return row?.destination_id;
  }

  /**
   * Records how a message sent outside the outbox (`tidings notify test`) went: a success or a failure
   * of the destination, as a queued message's would be.
   */
  async recordAttempt(destinationId: number, now: string, error?: string): Promise<void> {
    const at = toIso(now, 'now');
    const own = await this.get(destinationId);
    if (own === undefined) return;
    if (error === undefined) await this.#recordSuccess(destinationId, at);
    else await this.#recordFailure(destinationId, at, clipError(error));
  }

  async #recordSuccess(destinationId: number, at: string): Promise<void> {
    await this.db
      .updateTable('destinations')
      .set({ last_ok_at: at, failing_since: null })
      .where('id', '=', destinationId)
      .execute();
  }

  async #recordFailure(destinationId: number, at: string, error: string): Promise<void> {
    await this.db
      .updateTable('destinations')
      .set((eb) => ({
        last_error: error,
        last_error_at: at,
        failing_since: eb.fn.coalesce('failing_since', eb.val(at)),
      }))
      .where('id', '=', destinationId)
      .execute();
  }

  /**
   * Queues the daily digest of every destination that asked for one and had none for a day: the feeds its
   * user follows that are still broken (failing or gone), or nothing when none is. Instance-wide, like the
   * outbox; each destination's digest is queued by one process only (the update that moves
   * digest_sent_at is the claim). `linkBase` is TIDINGS_BASE_URL. Returns the digests queued.
   */
  async queueDigests(now: string, linkBase?: string): Promise<number> {
    const at = toIso(now, 'now');
    const dayAgo = new Date(Date.parse(at) - DAY_MS).toISOString();
    const due = await this.db
      .selectFrom('destinations')
      .select(['id', 'user_id'])
      .where('digest', '=', 'daily')
      .where('digest_sent_at', '<=', dayAgo)
      .execute();
    let queued = 0;
    for (const destination of due) {
      queued += await this.db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('destinations')
          .set({ digest_sent_at: at })
          .where('id', '=', destination.id)
          .where('digest_sent_at', '<=', dayAgo)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return 0;
        const feeds = await brokenFeeds(trx, this.dialect, destination.user_id, linkBase);
        if (feeds.length === 0) return 0;
        const payload = JSON.stringify({ type: 'digest', at, period: 'daily', feeds });
        await enqueueMessages(trx, [{ destinationId: destination.id, eventType: 'digest', payload }], at);
        return 1;
      });
    }
    return queued;
  }

  /**
   * Deletes the messages that were done (sent or given up) before `before`, of every user: the outbox
   * is a queue, not an archive. Returns how many.
   */
  async pruneDone(before: string): Promise<number> {
    const result = await this.db
      .deleteFrom('outbox')
      .where('next_attempt_at', 'is', null)
      .where('created_at', '<', toIso(before, 'before'))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** When the next queued message falls due (a retry's time), or undefined when none waits. */
  async nextDueTime(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    return row?.next ?? undefined;
  }

  /** The outbox's rows for the user's destinations (all of them, or one's), oldest first. */
  async messages(destinationId?: number): Promise<OutboxRecord[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .innerJoin('destinations', 'destinations.id', 'outbox.destination_id')
      .selectAll('outbox')
      .where('destinations.user_id', '=', this.userId)
      .$if(destinationId !== undefined, (query) =>
        query.where('outbox.destination_id', '=', destinationId as number),
      )
      .orderBy('outbox.id')
      .execute();
    return rows.map(recordFromRow);
  }

  /** How many of a destination's messages wait, went, and were given up. */
  async counts(destinationId: number): Promise<OutboxCounts> {
    const rows = await this.messages(destinationId);
    return {
      pending: rows.filter((row) => row.nextAttemptAt !== undefined).length,
      sent: rows.filter((row) => row.sentAt !== undefined).length,
      failed: rows.filter((row) => row.failedAt !== undefined).length,
    };
  }
}

const DAY_MS = 24 * 3600_000;
const BROKEN = ['fetch_error', 'parse_error', 'encoding_error', 'gone'];

/** A feed of the digest: what the feed-health alerts say of it. */
export interface DigestFeed {
  id: number;
  url: string;
  title: string | null;
  siteUrl: string | null;
  status: string;
  message: string | null;
  since: string | null;
  failures: number;
  link?: string;
}

/** The feeds the user follows (unpaused) that are broken now, longest broken first. */
async function brokenFeeds(
  trx: Transaction<Database>,
  dialect: Dialect,
  userId: number,
  linkBase: string | undefined,
): Promise<DigestFeed[]> {
  const rows = await trx
    .selectFrom('feeds')
    .leftJoin('feed_alerts', 'feed_alerts.feed_id', 'feeds.id')
    .select([
      'feeds.id',
      'feeds.url',
      'feeds.title',
      'feeds.site_url',
      'feeds.status',
      'feeds.message',
      'feed_alerts.failing_since',
      'feed_alerts.failures',
    ])
    .where('feeds.status', 'in', BROKEN)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('subscriptions')
          .innerJoin('channels', 'channels.id', 'subscriptions.channel_id')
          .select('subscriptions.id')
          .whereRef('subscriptions.feed_id', '=', 'feeds.id')
          .where('channels.user_id', '=', userId)
          .where('subscriptions.paused', '=', toDbBool(false, dialect)),
      ),
    )
    .orderBy('feeds.id')
    .execute();
  // NULLs sort first in SQLite and last in PostgreSQL: sorted here
  rows.sort((a, b) => compare(a.failing_since ?? '', b.failing_since ?? '') || a.id - b.id);
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    title: row.title,
    siteUrl: row.site_url,
    status: row.status ?? '',
    message: row.message,
    since: row.failing_since,
    failures: row.failures ?? 0,
    ...(linkBase !== undefined ? { link: `${linkBase}/feeds/${row.id}` } : {}),
  }));
}

function compare(a: string | null, b: string | null): number {
  if (a === b) return 0;
  return (a ?? '') < (b ?? '') ? -1 : 1;
}
