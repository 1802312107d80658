import type { StoredFeed } from '../../model/index.js';
import { type Area, StoreArea } from '../area.js';
import type { Backend } from '../backend.js';
import { claimableFeeds, isFollowed } from '../claim.js';
import type { PollWriter } from '../entries/index.js';
import { pollRows } from '../entries/index.js';
import { feedFromRow } from '../rows.js';
import type { ClaimFilter, ClaimOptions, PollOutcome, PollRound, PollRoundKind } from '../types.js';
import { toDbBool, toIso } from '../values.js';

/** The key feeds.claim_round holds for a round: its kind and number. */
function roundKey(kind: string, round: number): string {
  return `${kind}:${round}`;
}

function parseKey(key: string): { kind: string; round: number } {
  const at = key.lastIndexOf(':');
  return { kind: key.slice(0, at), round: Number(key.slice(at + 1)) };
}

/**
 * The poller's side of the store: claiming due feeds under leases (so that workers never poll a feed twice
 * at once), polling rounds, and writing each poll's outcome.
 */
export class Polling extends StoreArea {
  readonly #backend: Backend;
  readonly #pollWriter: PollWriter;

  constructor(area: Area, backend: Backend, pollWriter: PollWriter) {
    super(area);
    this.#backend = backend;
    this.#pollWriter = pollWriter;
  }

  /**
   * Claims up to `limit` feeds due at `now` (nextCheckAt <= now, or every feed when `force`), never a
   * paused or gone feed, nor one whose Retry-After lies ahead, nor one under a live lease (the caller's own
   * included, so a worker never polls a feed twice at once). The lease expires after `leaseMs`, so a crashed
   * worker's feeds come back. Soonest due first. PostgreSQL uses FOR UPDATE SKIP LOCKED.
   */
  async claimDue(options: ClaimOptions): Promise<StoredFeed[]> {
    const rows = await this.#backend.claimDueFeeds(this.db, options);
    return rows.map(feedFromRow);
  }

  /** How many feeds a claim with these options could take now (the total a run's progress shows). */
  async countClaimable(options: ClaimFilter): Promise<number> {
    const db = this.db;
    const dialect = this.dialect;
    if (options.feedIds?.length === 0) return 0;
    const row = await claimableFeeds(db, options, dialect)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The earliest next-check time of a feed that is polled at all (followed, not paused, not gone). */
  async nextCheckTime(): Promise<string | undefined> {
    const db = this.db;
    const dialect = this.dialect;
    const row = await db
      .selectFrom('feeds')
      .select((eb) => eb.fn.min('next_check_at').as('next'))
      .where(isFollowed)
      .where('paused', '=', toDbBool(false, dialect))
      .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'gone')]))
      .executeTakeFirst();
    return row?.next ?? undefined;
  }

  /** Drops the worker's lease on a feed; a lease held by another worker stays. */
  async release(id: number, workerId: string): Promise<void> {
    const db = this.db;
    await db
      .updateTable('feeds')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', id)
      .where('lease_owner', '=', workerId)
      .execute();
  }

  /** Moves the expiry of the worker's leases on these feeds to `leaseExpiresAt`; returns how many it still holds. */
  async renewLeases(ids: readonly number[], workerId: string, leaseExpiresAt: string): Promise<number> {
    const db = this.db;
    if (ids.length === 0) return 0;
    const result = await db
      .updateTable('feeds')
      .set({ lease_expires_at: leaseExpiresAt })
      .where('id', 'in', ids)
      .where('lease_owner', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Drops the worker's leases on these feeds in one statement (a run that stops short), and their claim in
   * `unclaimRound` when given; returns how many.
   */
  async releaseMany(
    ids: readonly number[],
    workerId: string,
    options: { unclaimRound?: string } = {},
  ): Promise<number> {
    const db = this.db;
    if (ids.length === 0) return 0;
    const round = options.unclaimRound;
    const result = await db
      .updateTable('feeds')
      .set({ lease_owner: null, lease_expires_at: null })
      .$if(round !== undefined, (query) =>
        query.set((eb) => ({
          claim_round: eb
            .case()
            .when('claim_round', '=', round as string)
            .then(null)
            .else(eb.ref('claim_round'))
            .end(),
        })),
      )
      .where('id', 'in', ids)
      .where('lease_owner', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * A polling round is the runs of one kind that overlap: a run joins the round of its kind while that
   * round is open (none of its runs has finished, and one renewed it within its lease), and otherwise opens
   * the next one. One upsert does both, so that runs starting together cannot open two rounds: SQLite has
   * one writer, and PostgreSQL locks the row for the second upsert and then sees the first one's round.
   */
  async joinRound(kind: PollRoundKind, now: string, expiresAt: string): Promise<PollRound> {
    const db = this.db;
    const dialect = this.dialect;
    const at = toIso(now, 'now');
    const until = toIso(expiresAt, 'expiresAt');
    const row = await db
      .insertInto('poll_rounds')
      .values({ kind, round: 1, started_at: at, expires_at: until, closed: toDbBool(false, dialect) })
      .onConflict((conflict) =>
        conflict.column('kind').doUpdateSet((eb) => {
          // every SET reads the row as it was, so `ended` means the same in each
          const ended = eb.or([
            eb('poll_rounds.closed', '=', toDbBool(true, dialect)),
            eb('poll_rounds.expires_at', '<=', at),
          ]);
          const later = eb('poll_rounds.expires_at', '<', until);
          return {
            round: eb
              .case()
              .when(ended)
              .then(eb('poll_rounds.round', '+', 1))
              .else(eb.ref('poll_rounds.round'))
              .end(),
            started_at: eb.case().when(ended).then(at).else(eb.ref('poll_rounds.started_at')).end(),
            expires_at: eb
              .case()
              .when(eb.or([ended, later]))
              .then(until)
              .else(eb.ref('poll_rounds.expires_at'))
              .end(),
            closed: toDbBool(false, dialect),
          };
        }),
      )
      .returning(['round', 'started_at'])
      .executeTakeFirstOrThrow();
    return { key: roundKey(kind, Number(row.round)), startedAt: row.started_at };
  }

  /** Keeps an open round open until `expiresAt` (its runs are still at work). */
  async renewRound(key: string, expiresAt: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    const { kind, round } = parseKey(key);
    const until = toIso(expiresAt, 'expiresAt');
    await db
      .updateTable('poll_rounds')
      .set({ expires_at: until })
      .where('kind', '=', kind)
      .where('round', '=', round)
      .where('closed', '=', toDbBool(false, dialect))
      .where('expires_at', '<', until)
      .execute();
  }

  /** Closes the round to new runs: one of its runs found nothing more to claim. */
  async closeRound(key: string): Promise<void> {
    const db = this.db;
    const dialect = this.dialect;
    const { kind, round } = parseKey(key);
    await db
      .updateTable('poll_rounds')
      .set({ closed: toDbBool(true, dialect) })
      .where('kind', '=', kind)
      .where('round', '=', round)
      .execute();
  }

  /**
   * Stores the outcome of one poll in one transaction: new entries inserted, changed entries updated
   * (keeping first-seen and read state), the feed's state patched, its lease released, one heartbeat added.
   * A guid already stored is skipped, not duplicated (another process may have won the race); a feed removed
   * meanwhile makes it a no-op. Polls are written in group commits.
   */
  record(outcome: PollOutcome): Promise<{ insertedIds: number[]; updatedIds: number[] }> {
    return this.#pollWriter.write(pollRows(this.dialect, outcome));
  }
}
