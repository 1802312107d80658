// What the notify area takes and gives (issue 25): destinations, the outbox's rows, feed-health events.

/** The event types a destination can take; `--events` names some of them. */
export const EVENT_TYPES = [
  'feed.failing',
  'feed.recovered',
  'feed.silent',
  'feed.gone',
  'feed.moved',
  'entry.matched',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** True when `name` is an event type (EVENT_TYPES). */
export function isEventType(name: string): name is EventType {
  return (EVENT_TYPES as readonly string[]).includes(name);
}

export const DESTINATION_KINDS = ['webhook', 'email', 'ntfy'] as const;

/** A webhook (POST of signed JSON), an email address (SMTP) or an ntfy topic URL. */
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** A destination to add. */
export interface NewDestination {
  kind: DestinationKind;
  /** The URL (webhook, ntfy) or the email address. */
  target: string;
  /** The webhook's HMAC-SHA256 key. */
  secret?: string | undefined;
  /** The event types it takes; undefined for every type (new ones included). */
  events?: readonly EventType[] | undefined;
  /** Email: a daily digest of what is still broken. */
  digest?: 'daily' | undefined;
}

/** A user's destination, with its delivery health. */
export interface StoredDestination {
  id: number;
  userId: number;
  kind: DestinationKind;
  target: string;
  secret?: string;
  /** Undefined: every event type. */
  events?: EventType[];
  digest?: 'daily';
  createdAt: string;
  /** The last message it took. */
  lastOkAt?: string;
  /** The last failure, in words, and when it was. Kept after a success, for the record. */
  lastError?: string;
  lastErrorAt?: string;
  /** The first failure since its last success: it is failing now. */
  failingSince?: string;
}

/** One message to send, as a sender claimed it. */
export interface OutboxItem {
  id: number;
  destination: StoredDestination;
  eventType: string;
  /** The event's JSON as a webhook receives it (the signed bytes). */
  payload: string;
  createdAt: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** One message to queue: for this destination, this event. */
export interface QueuedMessage {
  destinationId: number;
  eventType: string;
  /** JSON text. */
  payload: string;
}

/** How a sender claims due messages (as feeds are leased: see ClaimOptions). */
export interface OutboxClaim {
  now: string;
  /** Names the sender's claims. */
  workerId: string;
  /** How long the claim holds; past it, another sender may take the row (this one died). */
  leaseMs: number;
  limit: number;
}

/** How many of the outbox's rows are still to be sent, sent, and given up. */
export interface OutboxCounts {
  pending: number;
  sent: number;
  failed: number;
}

/** A row of the outbox as the destinations page and the tests read it. */
export interface OutboxRecord {
  id: number;
  destinationId: number;
  eventType: string;
  payload: string;
  createdAt: string;
  nextAttemptAt?: string;
  attempts: number;
  lastError?: string;
  sentAt?: string;
  failedAt?: string;
}
