import type { FetchOutcome, FetchRequest } from '../fetch/index.js';
import type { Diagnostic, HeartbeatStatus, StoredFeed } from '../model/index.js';
import type { FeedPatch, PollOutcome } from '../store/index.js';
import type { PollDeps } from './deps.js';
import { diffEntries } from './diff.js';
import { pollHealth } from './health.js';
import type { StoredPoll } from './hooks.js';
import { adoptLinkedFeed } from './linked-feed.js';
import { feedMetadata } from './metadata.js';
import { ParseTimeoutError } from './parse-pool.js';
import type { PreparedDocument } from './prepare.js';
import { learnCadence, nextCheckAt } from './scheduler.js';
import { brokenStoredDocument } from './status.js';

const DAY_MS = 24 * 3600 * 1000;
const MAX_STORED_DIAGNOSTICS = 50;

/** The request for a feed: its URL (or the one it is moving to), validators unless it is time to check without. */
export function buildRequest(deps: PollDeps, feed: StoredFeed, now: Date): FetchRequest {
  const request: FetchRequest = {
    url: feed.pendingMoveUrl ?? feed.url,
    conditional: !needsUnconditional(feed, now),
    timeoutMs: deps.config.timeoutMs,
    maxBodyBytes: deps.config.maxBodyBytes,
    allowPrivateAddresses: deps.config.allowPrivateAddresses,
  };
  if (feed.etag) request.etag = feed.etag;
  if (feed.lastModified) request.lastModified = feed.lastModified;
  if (feed.userAgent) request.userAgent = feed.userAgent;
  return request;
}

// About once a day (spread by feed id over 20-28 h) a feed is fetched without validators, to catch
// servers whose ETag or Last-Modified never changes although the document does.
function needsUnconditional(feed: StoredFeed, now: Date): boolean {
  if (!feed.trustsValidators) return true;
  if (!feed.etag && !feed.lastModified) return false;
  if (!feed.lastUnconditionalAt) return true;
  const spread = (20 + (feed.id % 9)) * 3600 * 1000;
  return now.getTime() - Date.parse(feed.lastUnconditionalAt) > spread;
}

/** Processes one fetched feed end to end: parse, compare entries, store, one heartbeat. */
export async function processOutcome(
  deps: PollDeps,
  feed: StoredFeed,
  request: FetchRequest,
  outcome: FetchOutcome,
  startedAt: Date,
  options: { pushed?: boolean } = {},
): Promise<StoredPoll> {
  await deps.hooks.onFetch?.(feed, outcome);
  const now = deps.now();
  const poll =
    outcome.kind === 'ok'
      ? await processDocument(deps, feed, request, outcome, now)
      : processFailure(deps, feed, outcome, now);
  if (options.pushed) keepPollState(poll);
  else {
    Object.assign(poll.feedPatch, await moveRule(deps, feed, outcome));
    await deps.push?.polled(feed, outcome, poll.feedPatch, poll.newEntries.length, now);
  }
  const heartbeat = {
    at: startedAt.toISOString(),
    status: poll.status,
    newCount: poll.newEntries.length,
    updatedCount: poll.changedEntries.length,
    bytes: outcome.kind === 'ok' ? outcome.bytes : 0,
    durationMs: now.getTime() - startedAt.getTime(),
    message: poll.message,
    diagnostics: poll.diagnostics.slice(0, MAX_STORED_DIAGNOSTICS),
    ...(outcome.kind === 'error'
      ? outcome.status
        ? { httpStatus: outcome.status }
        : {}
      : { httpStatus: outcome.status }),
  };
  const record: PollOutcome = {
    feedId: feed.id,
    workerId: deps.workerId,
    now: now.toISOString(),
    feedPatch: poll.feedPatch,
    heartbeat,
    newEntries: poll.newEntries,
    changedEntries: poll.changedEntries,
    // the alerts this poll causes are queued in the transaction that stores it
    health: pollHealth(deps.config, feed, poll, now),
  };
  const { insertedIds, updatedIds } = await deps.store.polling.record(record);
  // The icon is looked for in the background: the poll's answer never waits for it. After a 304 too, so
  // that a lookup cut short (the end of `poll --once`) is tried again although the feed is unchanged.
  if ((poll.status === 'ok' || poll.status === 'not_modified') && deps.config.feedIcons !== false)
    deps.icons?.request(withSiteLinks(feed, poll.feedPatch));
  const stored: StoredPoll = { heartbeat, insertedIds, updatedIds };
  await deps.hooks.onStored?.(feed, stored);
  return stored;
}

// A document a WebSub hub pushed (issue 26) is stored as a fetched one, but it was not fetched: the
// validators, the body hash, the schedule and any move stay as the last poll left them.
const POLL_STATE: readonly (keyof FeedPatch)[] = [
  'etag',
  'lastModified',
  'bodyHash',
  'lastUnconditionalAt',
  'trustsValidators',
  'nextCheckAt',
  'retryAfterAt',
  'url',
  'pendingMoveUrl',
  'pendingMoveCount',
];

function keepPollState(poll: PollDecision): void {
  for (const key of POLL_STATE) delete poll.feedPatch[key];
  poll.message = `${poll.message} (pushed by the hub)`;
}

/** The feed with the icon and site links this poll read (where its icon is looked for). */
function withSiteLinks(feed: StoredFeed, patch: FeedPatch): StoredFeed {
  return {
    ...feed,
    ...(patch.iconUrl ? { iconUrl: patch.iconUrl } : {}),
    ...(patch.siteUrl ? { siteUrl: patch.siteUrl } : {}),
  };
}

/** What processing decided, before it is written. */
interface PollDecision {
  status: HeartbeatStatus;
  message: string;
  diagnostics: Diagnostic[];
  feedPatch: FeedPatch;
  newEntries: PollOutcome['newEntries'];
  changedEntries: PollOutcome['changedEntries'];
}

function processFailure(
  deps: PollDeps,
  feed: StoredFeed,
  outcome: Exclude<FetchOutcome, { kind: 'ok' }>,
  now: Date,
): PollDecision {
  const base = { diagnostics: [], newEntries: [], changedEntries: [] };
  const patch: FeedPatch = {
    lastCheckedAt: now.toISOString(),
    httpStatus: outcome.kind === 'error' ? (outcome.status ?? null) : outcome.status,
  };
  if (outcome.kind === 'not_modified') {
    // The document is the one read last time: a parse or encoding problem in it is still there, so the
    // feed keeps that status, message and diagnostics (the heartbeat of this poll says not_modified).
    const stillBroken = feed.status === 'parse_error' || feed.status === 'encoding_error';
    // after a failed fetch the status is the failure's: the stored diagnostics tell what the document was
    const brokenBefore =
      stillBroken || feed.status === 'not_modified' || feed.status === 'ok'
        ? undefined
        : brokenStoredDocument(feed.diagnostics);
    Object.assign(patch, {
      errorCount: 0,
      lastSuccessAt: now.toISOString(),
      ...(stillBroken
        ? {}
        : brokenBefore
          ? { status: brokenBefore.status, message: brokenBefore.message }
          : { status: 'not_modified', message: 'fetch: not modified (304)' }),
    });
    if (outcome.etag) patch.etag = outcome.etag;
    if (outcome.lastModified) patch.lastModified = outcome.lastModified;
    // the hint the schedule used is stored, so that the feed's page can say why it waits (max-age too)
    const hint = outcome.maxAgeSeconds ?? feed.hintIntervalSeconds;
    if (outcome.maxAgeSeconds !== undefined) patch.hintIntervalSeconds = outcome.maxAgeSeconds;
    patch.nextCheckAt = schedule(deps, feed, 'not_modified', now, 0, hint);
    return { ...base, status: 'not_modified', message: 'fetch: not modified (304)', feedPatch: patch };
  }
  if (outcome.kind === 'gone') {
    const message =
      'fetch: the server says the feed is gone (410 Gone); it is no longer polled, its entries stay';
    Object.assign(patch, {
      status: 'gone',
      message,
      errorCount: 0,
      nextCheckAt: new Date(now.getTime() + 365 * DAY_MS).toISOString(),
    });
    return { ...base, status: 'gone', message, feedPatch: patch };
  }
  const errorCount = feed.errorCount + 1;
  const message = outcome.error.message;
  Object.assign(patch, { status: 'fetch_error', message, errorCount });
  const retry = outcome.retryAfterSeconds;
  if (retry !== undefined) patch.retryAfterAt = new Date(now.getTime() + retry * 1000).toISOString();
  patch.nextCheckAt = schedule(deps, feed, 'fetch_error', now, errorCount, feed.hintIntervalSeconds, retry);
  return { ...base, status: 'fetch_error', message, feedPatch: patch };
}

async function processDocument(
  deps: PollDeps,
  feed: StoredFeed,
  request: FetchRequest,
  outcome: Extract<FetchOutcome, { kind: 'ok' }>,
  now: Date,
): Promise<PollDecision> {
  const options = {
    baseUrl: outcome.url,
    ...(outcome.contentType ? { contentType: outcome.contentType } : {}),
    ...(deps.config.maxEntriesPerFeed ? { maxEntries: deps.config.maxEntriesPerFeed } : {}),
  };
  const arrival = feed.lastSuccessAt !== undefined;
  let document: PreparedDocument;
  try {
    // the body goes to the parse thread (and may be handed over): it is hashed there too
    document = await deps.preparer.prepare({ body: outcome.body, options, now: now.toISOString(), arrival });
  } catch (err) {
    if (err instanceof ParseTimeoutError) return parseTimedOut(deps, feed, outcome, err, now);
    throw err;
  }
  const patch = validatorPatch(feed, request, outcome, document.bodyHash, now);
  const diagnostics: Diagnostic[] = [];
  if (patch.trustsValidators === false) diagnostics.push(UNRELIABLE_VALIDATORS);
  diagnostics.push(...document.diagnostics);
  const { status, message } = document.status;
  const diff = await diffEntries(deps, feed, document.items, diagnostics);
  // a title the person gave the feed outlives what the feed calls itself
  const { title, ...metadata } = feedMetadata(document.result);
  Object.assign(patch, feed.customTitle === undefined && title ? { title } : {}, metadata, {
    status,
    message,
    httpStatus: outcome.status,
    errorCount: 0,
    lastCheckedAt: now.toISOString(),
    lastSuccessAt: now.toISOString(),
    diagnostics: diagnostics.slice(0, MAX_STORED_DIAGNOSTICS),
  });
  if (diff.newEntries.length > 0) patch.lastNewEntryAt = now.toISOString();
  const cadence = learnCadence(feed.cadenceSeconds, document.publishedTimes);
  if (cadence !== undefined) patch.cadenceSeconds = cadence;
  // the document's own hint (kept from before when the document was not a feed), and max-age
  const documentHint =
    patch.hintIntervalSeconds === undefined
      ? feed.hintIntervalSeconds
      : (patch.hintIntervalSeconds ?? undefined);
  const hints = [documentHint, outcome.maxAgeSeconds].filter((n): n is number => n !== undefined);
  const hint = hints.length ? Math.max(...hints) : undefined;
  // the hint the schedule used is stored, so that the feed's page can say why it waits (max-age too)
  patch.hintIntervalSeconds = hint ?? null;
  const learnt = cadence === undefined ? feed : { ...feed, cadenceSeconds: cadence };
  patch.nextCheckAt = schedule(deps, learnt, status, now, 0, hint);
  if (document.result.version === '')
    Object.assign(patch, await adoptLinkedFeed(deps, feed, document.result.alternates, message, now));
  return { status, message: patch.message ?? message, diagnostics, feedPatch: patch, ...diff };
}

// A document that took too long to parse: a parse_error, and the feed is polled again as after an error.
function parseTimedOut(
  deps: PollDeps,
  feed: StoredFeed,
  outcome: Extract<FetchOutcome, { kind: 'ok' }>,
  err: ParseTimeoutError,
  now: Date,
): PollDecision {
  const errorCount = feed.errorCount + 1;
  const feedPatch: FeedPatch = {
    status: 'parse_error',
    message: err.message,
    httpStatus: outcome.status,
    errorCount,
    lastCheckedAt: now.toISOString(),
    nextCheckAt: schedule(deps, feed, 'parse_error', now, errorCount, feed.hintIntervalSeconds),
  };
  return {
    status: 'parse_error',
    message: err.message,
    diagnostics: [],
    feedPatch,
    newEntries: [],
    changedEntries: [],
  };
}

const UNRELIABLE_VALIDATORS: Diagnostic = {
  severity: 'warning',
  code: 'feed.validators-unreliable',
  message:
    'poll: the server sent its old ETag/Last-Modified for a changed document; it is no longer asked conditionally',
};

/** ETag, Last-Modified and body hash; a server caught sending old validators for a new body loses trust. */
function validatorPatch(
  feed: StoredFeed,
  request: FetchRequest,
  outcome: Extract<FetchOutcome, { kind: 'ok' }>,
  bodyHash: string,
  now: Date,
): FeedPatch {
  const patch: FeedPatch = {
    etag: outcome.etag ?? null,
    lastModified: outcome.lastModified ?? null,
    bodyHash,
  };
  const sentValidators =
    request.conditional !== false && (request.etag !== undefined || request.lastModified !== undefined);
  if (!sentValidators) {
    patch.lastUnconditionalAt = now.toISOString();
    const sameValidators =
      (feed.etag !== undefined || feed.lastModified !== undefined) &&
      feed.etag === outcome.etag &&
      feed.lastModified === outcome.lastModified;
    if (
      sameValidators &&
      feed.bodyHash !== undefined &&
      feed.bodyHash !== bodyHash &&
      feed.trustsValidators
    ) {
      patch.trustsValidators = false;
    }
  }
  return patch;
}

function schedule(
  deps: PollDeps,
  feed: StoredFeed,
  status: HeartbeatStatus,
  now: Date,
  errorCount: number,
  hintSeconds: number | undefined,
  retryAfterSeconds?: number,
): string {
  const at = nextCheckAt({
    now,
    status,
    baseIntervalSeconds: feed.pollIntervalSeconds ?? deps.config.pollIntervalSeconds,
    adaptiveMax: deps.config.adaptiveMax,
    errorCount,
    hintSeconds,
    cadenceSeconds: feed.cadenceSeconds,
    retryAfterSeconds,
  });
  return (at ?? new Date(now.getTime() + 365 * DAY_MS)).toISOString();
}

/**
 * Permanent redirects move a feed only once the move is seen to hold: the next poll asks the new URL
 * directly, and when that works the new URL becomes the feed's URL; when it fails, the feed goes back.
 */
async function moveRule(deps: PollDeps, feed: StoredFeed, outcome: FetchOutcome): Promise<FeedPatch> {
  const worked = outcome.kind === 'ok' || outcome.kind === 'not_modified';
  if (feed.pendingMoveUrl) {
    if (!worked) return { pendingMoveUrl: null, pendingMoveCount: 0 };
    const taken = await deps.store.feeds.findByUrl(feed.pendingMoveUrl);
    if (taken && taken.id !== feed.id) return { pendingMoveUrl: null, pendingMoveCount: 0 };
    return { url: feed.pendingMoveUrl, pendingMoveUrl: null, pendingMoveCount: 0 };
  }
  const redirects = outcome.redirects;
  if (redirects.length > 0 && redirects.every((r) => r.permanent) && outcome.url !== feed.url) {
    return { pendingMoveUrl: outcome.url, pendingMoveCount: 1 };
  }
  return {};
}
