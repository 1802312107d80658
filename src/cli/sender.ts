import { OutboxSender } from '../notify/index.js';
import { type DestinationKind, isEventType } from '../store/index.js';
import type { PollingApp } from './app.js';

/**
 * How long `poll --once` waits, after its polls, for the alerts they caused to go out: each message waits
 * 10 s at most for its receiver. What is not sent by then (a retry, a slow receiver) stays queued for the
 * next process that polls.
 */
export const DRAIN_MS = 20_000;

/**
 * The outbox's sender of a process that polls (issue 25: whichever process polls sends what its polls
 * caused): `poll --once` drains it before it exits, `worker` and `serve` run it beside the poller. It
 * sends every user's messages, so it works on the instance's store. `onSent` hears each message sent.
 */
export function openSender(
  app: PollingApp,
  onSent?: (kind: DestinationKind, eventType: string) => void,
): OutboxSender {
  return new OutboxSender({
    store: app.instance,
    config: app.config,
    log: app.log,
    now: app.poll.now,
    workerId: app.poll.workerId,
    ...(onSent !== undefined ? { onSent } : {}),
  });
}

/** Runs the sender until the signal aborts, then closes it (serve, worker). */
export async function runSender(app: PollingApp, signal: AbortSignal): Promise<void> {
  // the process that serves /metrics counts the alerts it sends (tidings_alerts_sent_total)
  const sender = openSender(app, (_kind, eventType) => {
    if (isEventType(eventType)) app.metrics?.countAlertSent(eventType);
  });
  try {
    await sender.run(signal);
  } finally {
    sender.close();
  }
}
