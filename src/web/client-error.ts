/** A request the web UI refuses because of the client's mistake: answered with its 4xx status and message. */
export class ClientError extends Error {
  readonly status: 400 | 404;

  constructor(status: 400 | 404, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClientError';
    this.status = status;
  }
}

/** A module's message as a sentence for a page: "feed: others follow ..." -> "Others follow ...". */
export function withoutModule(message: string): string {
  const text = message.replace(/^[a-z]+: /, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
