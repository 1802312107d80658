import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { PollRound, PollRoundKind } from './store.js';
import { toDbBool, toIso } from './values.js';

type Dialect = 'sqlite' | 'postgres';

/** The key feeds.claim_round holds for a round: its kind and number. */
function roundKey(kind: string, round: number): string {
  return `${kind}:${round}`;
}

function parseKey(key: string): { kind: string; round: number } {
  const at = key.lastIndexOf(':');
  return { kind: key.slice(0, at), round: Number(key.slice(at + 1)) };
}

/**
 * A polling round is the runs of one kind that overlap: a run joins the round of its kind while that
 * round is open (none of its runs has finished, and one renewed it within its lease), and otherwise opens
 * the next one. One upsert does both, so that runs starting together cannot open two rounds: SQLite has
 * one writer, and PostgreSQL locks the row for the second upsert and then sees the first one's round.
 */
export async function joinPollRound(
  db: Kysely<Database>,
  dialect: Dialect,
  kind: PollRoundKind,
  now: string,
  expiresAt: string,
): Promise<PollRound> {
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
export async function renewPollRound(
  db: Kysely<Database>,
  dialect: Dialect,
  key: string,
  expiresAt: string,
): Promise<void> {
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
export async function closePollRound(db: Kysely<Database>, dialect: Dialect, key: string): Promise<void> {
  const { kind, round } = parseKey(key);
  await db
    .updateTable('poll_rounds')
    .set({ closed: toDbBool(true, dialect) })
    .where('kind', '=', kind)
    .where('round', '=', round)
    .execute();
}
