import { randomBytes } from 'node:crypto';
import type { FetchOutcome } from '../../fetch/index.js';
import { plural, type StoredFeed } from '../../model/index.js';
import type { FeedPatch, PushSubscription } from '../../store/index.js';
import type { PollDeps, PushAnswer, PushPort } from '../deps.js';
import { buildRequest, processOutcome } from '../refresh.js';
import { askHub } from './hub.js';
import { discovered } from './links.js';
import { isWorking, relaxSchedule } from './schedule.js';
import { checkSignature } from './signature.js';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** The lease asked for: 7 days (the hub may grant another; what it grants is kept). */
export const LEASE_SECONDS = 7 * 24 * 3600;
/** A lease is renewed when this share of it has passed. */
const RENEW_AT = 0.8;
/** How long a request waits for the hub's verification of intent before it counts as failed. */
const VERIFY_WAIT_MS = HOUR_MS;
/** A failed subscription is asked for again after this; a failed renewal sooner. */
const RETRY_FAILED_MS = DAY_MS;
const RETRY_RENEWAL_MS = HOUR_MS;
/** Subscriptions the keeper looks at in one go. */
const KEEP_BATCH = 50;

/** The path under TIDINGS_BASE_URL where hubs reach tidings: `/websub/<token>`. */
export const CALLBACK_PREFIX = '/websub/';

/**
 * The subscriber side of W3C WebSub (issue 26): discovery after each poll, subscription requests to
 * hubs, the callback's verification of intent and content distribution, lease renewal, unsubscription
 * of feeds no one follows. A pushed document goes through refresh.ts as a fetched one does.
 */
export class WebSub implements PushPort {
  readonly #deps: PollDeps;
  readonly #baseUrl: string;
  readonly #tasks = new Set<Promise<void>>();
  /** Feeds this process is subscribing now: a second poll of one does not ask twice. */
  readonly #subscribing = new Set<number>();
  /** Each feed's deliveries, one after the other. */
  readonly #deliveries = new Map<number, Promise<void>>();

  constructor(deps: PollDeps, baseUrl: string) {
    this.#deps = deps;
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** The callback URL of a subscription token. */
  callbackUrl(token: string): string {
    return `${this.#baseUrl}${CALLBACK_PREFIX}${token}`;
  }

  async polled(
    feed: StoredFeed,
    outcome: FetchOutcome,
    patch: FeedPatch,
    newCount: number,
    now: Date,
  ): Promise<void> {
    const links = discovered(feed, outcome, patch);
    if (links === undefined) {
      if (outcome.kind === 'ok') await this.#hubGone(feed.id);
      return;
    }
    const current = await this.#deps.store.websub.get(feed.id);
    // left to run out (below), the subscription is made again when the hub comes back
    const dropped = current?.nextActionAt === undefined && current?.state !== 'denied';
    if (current === undefined || current.hub !== links.hub || current.topic !== links.topic || dropped) {
      if (this.#subscribing.has(feed.id)) return;
      this.#subscribing.add(feed.id);
      this.#background(() =>
        this.#subscribe(feed.id, links.hub, links.topic).finally(() => this.#subscribing.delete(feed.id)),
      );
      return;
    }
    if (!isWorking(current, now)) return;
    // the stored entries matched the feed when push began: a poll that finds a new one caught the hub out
    const inStep = current.verifiedAt !== undefined && (feed.lastSuccessAt ?? '') >= current.verifiedAt;
    if (newCount > 0 && inStep) {
      await this.#deps.store.websub.update(current.token, {
        unreliableAt: now.toISOString(),
        message: `websub: a poll found ${plural(newCount, 'entry', 'entries')} the hub never pushed; the feed is polled as usual`,
      });
      return;
    }
    relaxSchedule(this.#deps, feed, current, patch, now);
  }

  async verify(token: string, query: Record<string, string>): Promise<PushAnswer> {
    const sub = await this.#deps.store.websub.byToken(token);
    const mode = query['hub.mode'];
    const now = this.#deps.now();
    if (sub === undefined || query['hub.topic'] !== sub.topic) return NOT_FOUND;
    if (mode === 'denied') {
      if (sub.pendingMode !== 'subscribe' && sub.state !== 'active') return NOT_FOUND;
      const reason = query['hub.reason']?.trim();
      await this.#deps.store.websub.update(token, {
        state: 'denied',
        pendingMode: null,
        nextActionAt: null,
        message: `websub: the hub denied the subscription${reason ? `: ${reason.slice(0, 300)}` : ''}`,
      });
      this.#deps.log.info({ feedId: sub.feedId, hub: sub.hub }, 'websub: subscription denied');
      return { status: 200, body: '' };
    }
    const challenge = query['hub.challenge'];
    if ((mode !== 'subscribe' && mode !== 'unsubscribe') || sub.pendingMode !== mode || !challenge)
      return NOT_FOUND;
    if (mode === 'unsubscribe') {
      await this.#deps.store.websub.remove(token);
      return { status: 200, body: challenge };
    }
    const granted = Number(query['hub.lease_seconds']);
    const leaseSeconds =
      Number.isInteger(granted) && granted > 0 ? granted : (sub.leaseSeconds ?? LEASE_SECONDS);
    await this.#deps.store.websub.update(token, {
      state: 'active',
      pendingMode: null,
      leaseSeconds,
      verifiedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + leaseSeconds * 1000).toISOString(),
      nextActionAt: new Date(now.getTime() + leaseSeconds * 1000 * RENEW_AT).toISOString(),
      message: null,
    });
    this.#deps.log.info({ feedId: sub.feedId, hub: sub.hub, leaseSeconds }, 'websub: subscription verified');
    return { status: 200, body: challenge };
  }

  async deliver(token: string, headers: Record<string, string>, body: Uint8Array): Promise<PushAnswer> {
    const sub = await this.#deps.store.websub.byToken(token);
    // W3C WebSub 8: a 410 tells the hub that the subscription is deleted, so that it may stop sending
    if (sub === undefined) return GONE;
    const check = checkSignature(headers['x-hub-signature'], sub.secret, body);
    if (check !== 'good') {
      this.#deps.log.warn({ feedId: sub.feedId, signature: check }, 'websub: delivery ignored');
      // W3C WebSub 8: a wrong signature is acknowledged (2xx) and ignored; none at all is refused
      return check === 'missing'
        ? { status: 400, body: 'websub: X-Hub-Signature is missing' }
        : { status: 202, body: '' };
    }
    // nobody follows the feed any more: its unsubscribe is on its way, and what it pushes meanwhile is not kept
    const feed = await this.#deps.store.feeds.get(sub.feedId);
    if (feed === undefined || feed.unfollowedAt !== undefined) return GONE;
    this.#background(() => this.#inTurn(sub.feedId, () => this.#process(sub, headers, body)));
    return { status: 202, body: '' };
  }

  async keep(): Promise<void> {
    const now = this.#deps.now();
    const due = await this.#deps.store.websub.due(now.toISOString(), KEEP_BATCH);
    for (const sub of due) {
      const claim = { ifNextActionAt: sub.nextActionAt ?? null };
      if (sub.unfollowed) {
        if (sub.pendingMode === 'unsubscribe' || (sub.state !== 'active' && sub.state !== 'pending')) {
          // nothing to undo, or the hub never confirmed: its lease runs out by itself
          await this.#deps.store.websub.remove(sub.token);
          continue;
        }
        const later = { pendingMode: 'unsubscribe' as const, nextActionAt: at(now, DAY_MS) };
        if (await this.#deps.store.websub.update(sub.token, later, claim))
          this.#background(() => this.#unsubscribe(sub));
        continue;
      }
      if (sub.state === 'pending') {
        await this.#deps.store.websub.update(
          sub.token,
          {
            state: 'failed',
            pendingMode: null,
            message: 'websub: the hub never came to verify the subscription',
            nextActionAt: at(now, RETRY_FAILED_MS),
          },
          claim,
        );
        continue;
      }
      const renewing = sub.state === 'active' && (sub.expiresAt ?? '') > now.toISOString();
      const next = renewing
        ? { pendingMode: 'subscribe' as const, nextActionAt: at(now, RETRY_RENEWAL_MS) }
        : {
            state: 'pending' as const,
            pendingMode: 'subscribe' as const,
            requestedAt: now.toISOString(),
            nextActionAt: at(now, VERIFY_WAIT_MS),
          };
      if (await this.#deps.store.websub.update(sub.token, next, claim))
        this.#background(() => this.#ask(sub, 'subscribe', renewing));
    }
  }

  async idle(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  /** A feed that names no hub any more: its subscription is not renewed, and runs out. */
  async #hubGone(feedId: number): Promise<void> {
    const current = await this.#deps.store.websub.get(feedId);
    if (current === undefined || current.nextActionAt === undefined) return;
    await this.#deps.store.websub.update(current.token, {
      nextActionAt: null,
      pendingMode: null,
      message: 'websub: the feed names no hub any more; the subscription is left to run out',
    });
  }

  /** A new subscription (new token and secret) replaces whatever the feed had. */
  async #subscribe(feedId: number, hub: string, topic: string): Promise<void> {
    const now = this.#deps.now();
    const sub: PushSubscription = {
      feedId,
      token: randomBytes(24).toString('base64url'),
      secret: randomBytes(32).toString('hex'),
      hub,
      topic,
      state: 'pending',
      pendingMode: 'subscribe',
      requestedAt: now.toISOString(),
      leaseSeconds: LEASE_SECONDS,
      nextActionAt: at(now, VERIFY_WAIT_MS),
    };
    // written before the hub is asked: a hub may verify before it answers
    await this.#deps.store.websub.put(sub);
    await this.#ask(sub, 'subscribe', false);
  }

  /** Asks the hub; a refusal or an unreachable hub is written down (a renewal is tried again sooner). */
  async #ask(sub: PushSubscription, mode: 'subscribe' | 'unsubscribe', renewing: boolean): Promise<void> {
    const form: Record<string, string> = {
      'hub.mode': mode,
      'hub.topic': sub.topic,
      'hub.callback': this.callbackUrl(sub.token),
    };
    if (mode === 'subscribe') {
      form['hub.secret'] = sub.secret;
      form['hub.lease_seconds'] = String(LEASE_SECONDS);
    }
    const answer = await askHub(sub.hub, form, {
      allowPrivateAddresses: this.#deps.config.allowPrivateAddresses,
      timeoutMs: this.#deps.config.timeoutMs,
    });
    if (answer.ok) return;
    this.#deps.log.warn(
      { feedId: sub.feedId, hub: sub.hub, mode, message: answer.message },
      'websub: hub request failed',
    );
    if (mode === 'unsubscribe') return;
    const now = this.#deps.now();
    await this.#deps.store.websub.update(
      sub.token,
      renewing
        ? { pendingMode: null, message: answer.message, nextActionAt: at(now, RETRY_RENEWAL_MS) }
        : {
            state: 'failed',
            pendingMode: null,
            message: answer.message,
            nextActionAt: at(now, RETRY_FAILED_MS),
          },
    );
  }

  async #unsubscribe(sub: PushSubscription): Promise<void> {
    await this.#ask(sub, 'unsubscribe', false);
  }

  /** A delivery whose signature is good: processed as a fetched document of its topic. */
  async #process(sub: PushSubscription, headers: Record<string, string>, body: Uint8Array): Promise<void> {
    const feed = await this.#deps.store.feeds.get(sub.feedId);
    if (feed === undefined) return;
    const startedAt = this.#deps.now();
    const contentType = headers['content-type'];
    const outcome: FetchOutcome = {
      kind: 'ok',
      status: 200,
      url: sub.topic,
      body,
      headers,
      ...(contentType ? { contentType } : {}),
      redirects: [],
      bytes: body.byteLength,
      transferredBytes: body.byteLength,
      durationMs: 0,
    };
    await processOutcome(this.#deps, feed, buildRequest(this.#deps, feed, startedAt), outcome, startedAt, {
      pushed: true,
    });
    await this.#deps.store.websub.update(sub.token, { lastDeliveryAt: this.#deps.now().toISOString() });
  }

  /** Runs `work` after the feed's deliveries before it. */
  #inTurn(feedId: number, work: () => Promise<void>): Promise<void> {
    const before = this.#deliveries.get(feedId) ?? Promise.resolve();
    const mine = before.then(work, work);
    this.#deliveries.set(feedId, mine);
    return mine.finally(() => {
      if (this.#deliveries.get(feedId) === mine) this.#deliveries.delete(feedId);
    });
  }

  #background(work: () => Promise<void>): void {
    const task = work()
      .catch((err: unknown) => this.#deps.log.error({ err }, 'websub: background work failed'))
      .finally(() => this.#tasks.delete(task));
    this.#tasks.add(task);
  }
}

const NOT_FOUND: PushAnswer = { status: 404, body: 'websub: no such subscription' };
const GONE: PushAnswer = { status: 410, body: 'websub: no such subscription' };

function at(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}
