import { redactSecrets } from '../log.js';
import {
  DESTINATION_KINDS,
  type DestinationKind,
  EVENT_TYPES,
  type EventType,
  isEventType,
  type NewDestination,
  type StoredDestination,
} from '../store/index.js';
import { newSecret } from './sign.js';

// an address as SMTP takes it: something, @, a domain with a dot; the mail server says the rest
const EMAIL_ADDRESS = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
/** Shorter than this, a webhook's secret is too easy to guess to sign with. */
export const MIN_SECRET_LENGTH = 8;

/** A destination as someone typed it: `tidings notify add` and the web UI's Alerts page. */
export interface DestinationInput {
  kind: string;
  target: string;
  /** Webhook only; absent: a new random one. */
  secret?: string | undefined;
  /** Event types; absent: every event. An empty list is a mistake (say nothing for all). */
  events?: readonly string[] | undefined;
  /** Email only: `daily`. */
  digest?: string | undefined;
}

/** What each front end calls the optional fields in its messages: `--secret`, or "The secret". */
export interface DestinationLabels {
  secret: string;
  events: string;
  digest: string;
}

/** A destination that cannot be added, in one line for the person who typed it. */
export class DestinationInputError extends Error {
  override readonly name = 'DestinationInputError';
}

/**
 * The destination `input` describes, checked the same way wherever it is typed (issue 25): the kind, an
 * http(s) URL or an email address, a secret only for webhooks and long enough, known event types, a
 * daily digest only for email. A webhook without a secret gets a new random one.
 */
export function checkDestination(input: DestinationInput, labels: DestinationLabels): NewDestination {
  const { kind, target } = input;
  const fail = (message: string) => new DestinationInputError(message);
  if (!(DESTINATION_KINDS as readonly string[]).includes(kind))
    throw fail(`${JSON.stringify(kind)} is not a kind of destination: use webhook, email or ntfy`);
  const destinationKind = kind as DestinationKind;
  if (destinationKind === 'email') {
    if (!EMAIL_ADDRESS.test(target)) throw fail(`${JSON.stringify(target)} is not an email address`);
  } else if (!URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol))
    throw fail(`a ${kind} destination is an http or https URL, not ${JSON.stringify(target)}`);
  // ntfy publishes to a topic, the URL's path (https://ntfy.sh/my-feeds): a server's root is none
  else if (destinationKind === 'ntfy' && new URL(target).pathname.replace(/\/+$/, '') === '')
    throw fail(
      `an ntfy destination names its topic, such as https://ntfy.sh/my-feeds, not ${JSON.stringify(target)}`,
    );
  if (input.secret !== undefined && destinationKind !== 'webhook')
    throw fail(`${labels.secret} is for webhooks (their X-Tidings-Signature)`);
  if (input.secret !== undefined && input.secret.length < MIN_SECRET_LENGTH)
    throw fail(
      `${labels.secret} is too short to sign with: give at least ${MIN_SECRET_LENGTH} characters, or leave it out for a random one`,
    );
  if (input.digest !== undefined && (destinationKind !== 'email' || input.digest !== 'daily'))
    throw fail(`${labels.digest} takes \`daily\`, for email destinations`);
  let events: EventType[] | undefined;
  if (input.events !== undefined) {
    const unknown = input.events.filter((name) => !isEventType(name));
    if (input.events.length === 0 || unknown.length > 0)
      throw fail(
        `${labels.events} takes event types from ${EVENT_TYPES.join(', ')}${unknown.length > 0 ? `, not ${unknown.join(', ')}` : ''}`,
      );
    events = input.events as EventType[];
  }
  return {
    kind: destinationKind,
    target,
    ...(destinationKind === 'webhook' ? { secret: input.secret ?? newSecret() } : {}),
    ...(events !== undefined ? { events } : {}),
    ...(input.digest === 'daily' ? { digest: 'daily' as const } : {}),
  };
}

/**
 * A destination's URL or address as it is shown (lists, messages): a password or token in a URL is ***,
 * as a webhook's secret is never shown back; an email address as it is.
 */
export function shownTarget(destination: Pick<StoredDestination, 'kind' | 'target'>): string {
  return destination.kind === 'email' ? destination.target : redactSecrets(destination.target);
}
