import type { Transaction } from 'kysely';
import { redactSecrets } from '../../log.js';
import type { Database } from '../schema.js';
import type { FeedEvent, FeedEventType, PollHealth } from '../types.js';
import { chunk } from '../values.js';
import { writeAlertEntries } from './alert-entries.js';
import { enqueueMessages, listenersOf, takes } from './outbox.js';
import type { QueuedMessage } from './types.js';

/** A feed's alert state (feed_alerts); NO_ALERTS for a feed without a row. */
export interface FeedAlertState {
  /** Failed polls in a row. */
  failures: number;
  /** The first failure of the run. */
  failingSince: string | null;
  /** When feed.failing was sent for this run. */
  failingSentAt: string | null;
  /** When feed.gone was sent. */
  goneSentAt: string | null;
  /** When feed.silent was sent for this quiet spell. */
  silentSentAt: string | null;
}

export const NO_ALERTS: FeedAlertState = {
  failures: 0,
  failingSince: null,
  failingSentAt: null,
  goneSentAt: null,
  silentSentAt: null,
};

/**
 * What one poll makes of a feed's alert state: the next state and the events to send. One event per
 * change, never one per poll: feed.failing once a run of failures reaches `alertAfter` polls,
 * feed.recovered at the first good poll after that was sent, feed.gone once, feed.moved each time a
 * permanent redirect changes the URL, feed.silent once when a working feed goes quiet (again after it
 * posted). A feed that stays broken or quiet sends nothing more.
 */
export function stepFeedAlerts(
  state: FeedAlertState,
  health: PollHealth,
  at: string,
): { state: FeedAlertState; events: FeedEvent[] } {
  const events: FeedEvent[] = [];
  const event = (type: FeedEventType, run: FeedAlertState, extra: Partial<FeedEvent> = {}): FeedEvent => ({
    type,
    at,
    // alerts leave the instance (webhooks, ntfy topics, mail providers): a feed followed as
    // https://user:password@host/feed is told as https://user:***@host/feed, as the logs tell it
    feed: { ...health.report.feed, url: redactSecrets(health.report.feed.url) },
    status: health.report.status,
    since: run.failingSince ?? at,
    failures: run.failures,
    message: redactSecrets(health.report.message),
    ...(health.report.diagnostic !== undefined ? { diagnostic: health.report.diagnostic } : {}),
    ...extra,
    ...(health.report.link !== undefined ? { link: health.report.link } : {}),
  });
  let next: FeedAlertState;
  if (health.gone || health.failed) {
    next = { ...state, failures: state.failures + 1, failingSince: state.failingSince ?? at };
    if (health.gone && next.goneSentAt === null) {
      events.push(event('feed.gone', next));
      next.goneSentAt = at;
    } else if (!health.gone && next.failures >= health.alertAfter && next.failingSentAt === null) {
      events.push(event('feed.failing', next));
      next.failingSentAt = at;
    }
  } else {
    if (state.failingSentAt !== null) events.push(event('feed.recovered', state));
    // a quiet spell outlives a failure within it: feed.silent is not sent again after the recovery
    next = { ...NO_ALERTS, silentSentAt: health.silent === undefined ? null : state.silentSentAt };
    if (health.silent !== undefined && next.silentSentAt === null) {
      events.push(event('feed.silent', next, { since: health.silent.since, message: health.silent.message }));
      next.silentSentAt = at;
    }
    if (next.silentSentAt === null) next = NO_ALERTS;
  }
  if (health.movedTo !== undefined)
    events.push(event('feed.moved', next, { newUrl: redactSecrets(health.movedTo) }));
  return { state: next, events };
}

/** One stored poll that told the alerts its health. */
export interface PolledHealth {
  feedId: number;
  at: string;
  health: PollHealth;
}

/**
 * Steps the alert state of each polled feed and queues its events for the destinations of every user
 * who follows it, filtered by the event types each takes, inside the poll's transaction (`trx`): the
 * alert is written with the poll that caused it, or not at all. A batch of good polls of feeds that are
 * not failing reads one statement and writes nothing. Each event is also an entry of the followers'
 * Microsub notifications channels (alert-entries.ts). Returns the messages queued and the ids of those
 * entries, whose channel rows the caller adds.
 */
export async function writeFeedAlerts(
  trx: Transaction<Database>,
  polls: readonly PolledHealth[],
): Promise<{ queued: number; alertEntryIds: number[] }> {
  const none = { queued: 0, alertEntryIds: [] };
  if (polls.length === 0) return none;
  const states = await readStates(
    trx,
    polls.map((poll) => poll.feedId),
  );
  const events: FeedEvent[] = [];
  for (const poll of polls) {
    const before = states.get(poll.feedId) ?? NO_ALERTS;
    const step = stepFeedAlerts(before, poll.health, poll.at);
    events.push(...step.events);
    await saveState(trx, poll.feedId, before, step.state, states.has(poll.feedId));
  }
  if (events.length === 0) return none;
  const alertEntryIds = await writeAlertEntries(trx, events);
  const listeners = await listenersOf(
    trx,
    events.map((event) => event.feed.id),
  );
  let queued = 0;
  for (const event of events) {
    const messages: QueuedMessage[] = (listeners.get(event.feed.id) ?? [])
      .filter((listener) => takes(listener.events, event.type))
      .map((listener) => ({
        destinationId: listener.destinationId,
        eventType: event.type,
        payload: JSON.stringify(event),
      }));
    await enqueueMessages(trx, messages, event.at);
    queued += messages.length;
  }
  return { queued, alertEntryIds };
}

async function readStates(
  trx: Transaction<Database>,
  feedIds: readonly number[],
): Promise<Map<number, FeedAlertState>> {
  const states = new Map<number, FeedAlertState>();
  for (const part of chunk([...new Set(feedIds)], 500)) {
    const rows = await trx.selectFrom('feed_alerts').selectAll().where('feed_id', 'in', part).execute();
    for (const row of rows)
      states.set(row.feed_id, {
        failures: row.failures,
        failingSince: row.failing_since,
        failingSentAt: row.failing_sent_at,
        goneSentAt: row.gone_sent_at,
        silentSentAt: row.silent_sent_at,
      });
  }
  return states;
}

/** Writes the state when it changed: no row for a feed that is neither failing nor silent. */
async function saveState(
  trx: Transaction<Database>,
  feedId: number,
  before: FeedAlertState,
  after: FeedAlertState,
  hasRow: boolean,
): Promise<void> {
  if (after === NO_ALERTS) {
    if (hasRow) await trx.deleteFrom('feed_alerts').where('feed_id', '=', feedId).execute();
    return;
  }
  if (hasRow && JSON.stringify(before) === JSON.stringify(after)) return;
  const columns = {
    failures: after.failures,
    failing_since: after.failingSince,
    failing_sent_at: after.failingSentAt,
    gone_sent_at: after.goneSentAt,
    silent_sent_at: after.silentSentAt,
  };
  await trx
    .insertInto('feed_alerts')
    .values({ feed_id: feedId, ...columns })
    .onConflict((conflict) => conflict.column('feed_id').doUpdateSet(columns))
    .execute();
}
