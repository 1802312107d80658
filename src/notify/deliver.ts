import { type Dispatcher, request } from 'undici';
import {
  checkTarget,
  DEFAULT_USER_AGENT,
  FETCH_DEFAULTS,
  FetchError,
  fetchMessageAs,
  getSharedAgent,
  oneLineMessage,
  readAnswerSample,
  withAuthorization,
} from '../fetch/index.js';
import type { StoredDestination } from '../store/index.js';
import type { Mailer } from './mail.js';
import { SIGNATURE_HEADER, signBody } from './sign.js';
import { eventWords } from './words.js';

/** A message or a test's wait for an answer: a receiver that takes longer holds the sender up. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What of a refusing receiver's answer is kept for the destination's last error. */

/** What delivering needs: the SSRF guard's setting, the mailer, and (tests) a dispatcher and timeout. */
export interface DeliveryContext {
  allowPrivateAddresses: boolean;
  /** Sends email; undefined when TIDINGS_SMTP_URL is not set. */
  mailer?: Mailer | undefined;
  timeoutMs?: number;
  /** Replaces the shared guarded Agent (which checks every resolved address). */
  dispatcher?: Dispatcher;
}

/** A message the destination took: its answer in words ("HTTP 204", "250 2.0.0 Ok: queued"). */
export interface Delivered {
  answer: string;
}

/** A message the destination did not take, or could not be reached: `kind: message`, one line. */
export class DeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DeliveryError';
  }
}

/**
 * Sends one event (its JSON `payload`) to a destination. A webhook gets the JSON as it is, signed; ntfy
 * and email get it in words. Resolves with the answer; rejects with a DeliveryError.
 */
export async function deliver(
  destination: StoredDestination,
  payload: string,
  context: DeliveryContext,
  deliveryId?: number,
): Promise<Delivered> {
  switch (destination.kind) {
    case 'webhook':
      return postWebhook(destination, payload, context, deliveryId);
    case 'ntfy':
      return postNtfy(destination, payload, context);
    case 'email':
      return sendEmail(destination, payload, context);
  }
}

function postWebhook(
  destination: StoredDestination,
  payload: string,
  context: DeliveryContext,
  deliveryId: number | undefined,
): Promise<Delivered> {
  const type = (JSON.parse(payload) as { type?: unknown }).type;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': DEFAULT_USER_AGENT,
    'x-tidings-event': String(type),
  };
  // receivers that must not act twice drop a delivery id they saw (a crash between send and mark)
  if (deliveryId !== undefined) headers['x-tidings-delivery'] = String(deliveryId);
  if (destination.secret !== undefined) headers[SIGNATURE_HEADER] = signBody(payload, destination.secret);
  return post('webhook', destination.target, payload, headers, context);
}

function postNtfy(
  destination: StoredDestination,
  payload: string,
  context: DeliveryContext,
): Promise<Delivered> {
  const words = eventWords(payload);
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'user-agent': DEFAULT_USER_AGENT,
    title: headerText(words.title),
    tags: words.tags.join(','),
  };
  if (words.link !== undefined) headers['click'] = words.link;
  return post('ntfy', destination.target, words.text, headers, context);
}

async function sendEmail(
  destination: StoredDestination,
  payload: string,
  context: DeliveryContext,
): Promise<Delivered> {
  if (context.mailer === undefined)
    throw new DeliveryError('email: TIDINGS_SMTP_URL is not set: tidings has no mail server to send through');
  const words = eventWords(payload);
  try {
    const answer = await context.mailer.send({
      to: destination.target,
      subject: words.title,
      text: words.text,
    });
    return { answer };
  } catch (error) {
    throw new DeliveryError(`email: ${oneLineMessage(error)}`, { cause: error });
  }
}

/**
 * POSTs the body through the SSRF guard of feed fetches: no scheme but http(s), no private or local
 * address unless TIDINGS_ALLOW_PRIVATE_ADDRESSES (checked for a literal IP here and for every resolved
 * address at connect time), and no redirect followed (a receiver that moved says so with its 3xx).
 */
async function post(
  kind: string,
  target: string,
  body: string,
  headers: Record<string, string>,
  context: DeliveryContext,
): Promise<Delivered> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new DeliveryError(`${kind}: ${JSON.stringify(target)} is not a URL`);
  }
  const refused = checkTarget(url, context.allowPrivateAddresses);
  if (refused !== undefined) throw new DeliveryError(fetchMessageAs(kind, refused), { cause: refused });
  const timeoutMs = context.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const dispatcher =
    context.dispatcher ?? getSharedAgent(context.allowPrivateAddresses, FETCH_DEFAULTS.connectTimeoutMs);
  // user:password in the URL (an ntfy topic with access control, a webhook behind Basic auth) is sent as
  // Basic credentials, as a feed's are; the URL itself goes out without them
  const authorized = withAuthorization(headers, url);
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  let response: Dispatcher.ResponseData;
  try {
    response = await request(bare, {
      method: 'POST',
      body,
      headers: authorized,
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof FetchError) throw new DeliveryError(fetchMessageAs(kind, error), { cause: error });
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'HeadersTimeoutError' || name === 'AbortError')
      throw new DeliveryError(`${kind}: no answer from ${url.host} within ${timeoutMs / 1000} s`, {
        cause: error,
      });
    throw new DeliveryError(`${kind}: cannot reach ${url.host}: ${oneLineMessage(error)}`, { cause: error });
  }
  const sample = await readAnswerSample(response.body);
  const status = response.statusCode;
  if (status >= 200 && status < 300) return { answer: `HTTP ${status}` };
  const moved = status >= 300 && status < 400 ? ' (redirects are not followed: give the new URL)' : '';
  throw new DeliveryError(
    `${kind}: ${url.host} answered HTTP ${status}${moved}${sample ? `: ${sample}` : ''}`,
  );
}

/**
 * A header value from text that may hold any character: HTTP headers carry Latin-1 at most, so text
 * beyond ASCII goes as an RFC 2047 encoded word, which ntfy reads.
 */
export function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}
