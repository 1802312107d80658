import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.js';
import type { DestinationKind, OutboxItem, Store, StoredDestination } from '../store/index.js';
import { retryTime } from './backoff.js';
import { DELIVERY_TIMEOUT_MS, type DeliveryContext, DeliveryError, deliver } from './deliver.js';
import { configuredMailer, type Mailer } from './mail.js';

/** What a sender needs: the store, the delivery settings, a clock, a name for its claims. */
export interface SenderDeps {
  store: Store;
  config: {
    allowPrivateAddresses: boolean;
    smtpUrl?: string | undefined;
    mailFrom?: string | undefined;
    /** TIDINGS_BASE_URL: digests link to the feeds' pages. */
    baseUrl?: string | undefined;
  };
  log: Logger;
  now: () => Date;
  /** Names the sender's claims (a process's poller id will do). */
  workerId: string;
  /** Tests: a mailer of their own, a dispatcher, a shorter timeout. */
  mailer?: Mailer;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  /** Hears each message a destination took (the alerts counter of /metrics). */
  onSent?(kind: DestinationKind, eventType: string): void;
}

/** Messages claimed at a time, sent side by side. */
const BATCH = 8;
/** How long a claim holds: longer than a batch can take (each message waits DELIVERY_TIMEOUT_MS at most). */
const LEASE_MS = 60_000;
/** While idle, the sender looks for new messages this often (a poll queued some), and at retries' times. */
const IDLE_MS = 2_000;
/** How often a sender looks for daily digests that are due. */
const DIGEST_CHECK_MS = 60_000;
/** How often a sender deletes old messages that are done, and how old they must be. */
const PRUNE_EVERY_MS = 3600_000;
const KEEP_DONE_MS = 30 * 24 * 3600_000;
/** After the store failed, the loop waits this long. */
const RETRY_LOOP_MS = 30_000;

/** What a round of sending did. */
export interface SendSummary {
  sent: number;
  failed: number;
}

/**
 * Sends the outbox's due messages: claims a few, sends them, marks each sent or failed (to be tried
 * again later, or given up after a day). Whichever process polls runs one: `serve` and `worker` in a loop
 * (run), `poll --once` until what is due has gone (drain). Delivery is at least once: a message is marked
 * sent after the receiver took it, so a crash between the two sends it again when the claim lapses.
 */
export class OutboxSender {
  readonly #deps: SenderDeps;
  readonly #context: DeliveryContext;
  readonly #ownsMailer: boolean;
  #digestsCheckedAt = Number.NEGATIVE_INFINITY;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(deps: SenderDeps) {
    this.#deps = deps;
    const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const mailer = deps.mailer ?? configuredMailer(deps.config, timeoutMs);
    this.#ownsMailer = deps.mailer === undefined && mailer !== undefined;
    this.#context = {
      allowPrivateAddresses: deps.config.allowPrivateAddresses,
      mailer,
      timeoutMs,
      ...(deps.dispatcher !== undefined ? { dispatcher: deps.dispatcher } : {}),
    };
  }

  /** How sending reaches destinations: `tidings notify test` sends through the same. */
  get context(): DeliveryContext {
    return this.#context;
  }

  /** Sends the messages due now, a batch at a time, until none is due (retries wait for their time). */
  async sendDue(signal?: AbortSignal): Promise<SendSummary> {
    const summary: SendSummary = { sent: 0, failed: 0 };
    await this.#queueDigests();
    while (signal?.aborted !== true) {
      const items = await this.#deps.store.notify.claimDue({
        now: this.#deps.now().toISOString(),
        workerId: this.#deps.workerId,
        leaseMs: LEASE_MS,
        limit: BATCH,
      });
      if (items.length === 0) break;
      const results = await Promise.all(items.map((item) => this.#send(item)));
      for (const ok of results) ok ? summary.sent++ : summary.failed++;
    }
    return summary;
  }

  /**
   * `poll --once`: sends what is due now before the process exits, for at most `maxMs`; retries and what
   * is left are the next process's to send.
   */
  async drain(maxMs: number): Promise<SendSummary> {
    const stop = AbortSignal.timeout(maxMs);
    return this.sendDue(stop);
  }

  /** `serve` and `worker`: sends due messages until the signal aborts; a store failure is logged and waited out. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let waitMs = IDLE_MS;
      try {
        const summary = await this.sendDue(signal);
        if (summary.sent + summary.failed > 0) this.#deps.log.info({ ...summary }, 'notify: messages sent');
        waitMs = await this.#idleMs();
      } catch (err) {
        waitMs = RETRY_LOOP_MS;
        this.#deps.log.error({ err, retryInMs: waitMs }, 'notify: sending failed; trying again');
      }
      // Node's own timer: resolves after waitMs, rejects at once on abort (the loop then ends); it
      // removes its abort listener either way
      await delay(waitMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** Closes the mail connection it opened. */
  close(): void {
    if (this.#ownsMailer) this.#context.mailer?.close();
  }

  /** Sends one claimed message and marks it; true when the destination took it. */
  async #send(item: OutboxItem): Promise<boolean> {
    const { store, log, workerId } = this.#deps;
    const fields = { outboxId: item.id, destinationId: item.destination.id, event: item.eventType };
    try {
      const delivered = await deliver(item.destination, item.payload, this.#context, item.id);
      const marked = await store.notify.markSent(item.id, workerId, this.#deps.now().toISOString());
      if (!marked) log.warn(fields, 'notify: the claim lapsed before the message was marked sent');
      log.info({ ...fields, answer: delivered.answer }, 'notify: sent');
      this.#deps.onSent?.(item.destination.kind, item.eventType);
      return true;
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      const now = this.#deps.now();
      const retryAt = retryTime(item.createdAt, item.attempts + 1, now);
      await store.notify.markFailed(item.id, workerId, now.toISOString(), error.message, retryAt);
      log.warn({ ...fields, err: error.message, retryAt: retryAt ?? 'given up' }, 'notify: not sent');
      return false;
    }
  }

  /**
   * Queues the daily digests that are due, looking at most once a minute, and deletes messages done
   * for a month, once an hour.
   */
  async #queueDigests(): Promise<void> {
    const now = this.#deps.now();
    if (now.getTime() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      await this.#deps.store.notify.pruneDone(new Date(now.getTime() - KEEP_DONE_MS).toISOString());
    }
    if (now.getTime() - this.#digestsCheckedAt < DIGEST_CHECK_MS) return;
    this.#digestsCheckedAt = now.getTime();
    const queued = await this.#deps.store.notify.queueDigests(now.toISOString(), this.#deps.config.baseUrl);
    if (queued > 0) this.#deps.log.info({ queued }, 'notify: daily digests queued');
  }

  /** Until the next retry falls due, at most IDLE_MS (a poll may queue something any moment). */
  async #idleMs(): Promise<number> {
    const next = await this.#deps.store.notify.nextDueTime();
    if (next === undefined) return IDLE_MS;
    const ms = Date.parse(next) - this.#deps.now().getTime();
    return Math.min(Math.max(ms, 100), IDLE_MS);
  }
}

/** Sends a test message to a destination now, outside the outbox, and records how it went. */
export async function sendTest(
  store: Store,
  destination: StoredDestination,
  context: DeliveryContext,
  now: Date,
): Promise<{ delivered?: Delivered; error?: string }> {
  const payload = JSON.stringify({
    type: 'test',
    at: now.toISOString(),
    message: `This is a test message from tidings to destination ${destination.id} (${destination.kind} ${destination.target}).`,
  });
  try {
    const delivered = await deliver(destination, payload, context);
    await store.notify.recordAttempt(destination.id, now.toISOString());
    return { delivered };
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    await store.notify.recordAttempt(destination.id, now.toISOString(), error.message);
    return { error: error.message };
  }
}

type Delivered = Awaited<ReturnType<typeof deliver>>;
