import type { Dispatcher } from 'undici';
import type { FetchError } from './fetch-error.js';

// What a request other than a feed fetch (a webhook, a WebSub hub) says of its answer and its failures,
// in one line each, for messages that name the part of tidings that asked.

/** How much of an answer's body a message quotes. */
export const ANSWER_SAMPLE_BYTES = 300;

/**
 * The start of an answer's body on one line; the rest is not read, and the body is released (undici
 * keeps the connection until a body is consumed or destroyed).
 */
export async function readAnswerSample(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= ANSWER_SAMPLE_BYTES) break;
    }
  } catch {
    // an answer cut short says no less than its start
  }
  body.destroy();
  return Buffer.concat(chunks)
    .toString('utf8', 0, Math.min(size, ANSWER_SAMPLE_BYTES))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The guard's message (`fetch: refused to connect ...`) as another part's (`webhook: refused ...`). */
export function fetchMessageAs(prefix: string, error: FetchError): string {
  return `${prefix}: ${error.message.replace(/^fetch: /, '')}`;
}

/** Any error's message on one line. */
export function oneLineMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim();
}
