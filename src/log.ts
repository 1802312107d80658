import { pino } from 'pino';

/** The structured logger (JSON lines on stderr); every line about a feed carries feedId and url. */
export type Logger = pino.Logger;

/**
 * Creates the logger; the level comes from TIDINGS_LOG_LEVEL (default info). Every line passes
 * redactSecrets on its way out, whatever a call site put in it (an error's message, a URL, a header).
 */
export function createLogger(
  level = process.env['TIDINGS_LOG_LEVEL'] ?? 'info',
  destination: pino.DestinationStream = pino.destination({ fd: 2, sync: false }),
): Logger {
  return pino({ level, base: { app: 'tidings' }, hooks: { streamWrite: redactSecrets } }, destination);
}

/** A logger that writes nothing (tests, and CLI commands whose output is their result). */
export const silentLogger: Logger = pino({ level: 'silent' });

// Credentials that reach text: a URL's password (feeds behind Basic auth are followed as
// https://user:pass@host/feed, issue 22), a URL's user alone (a token as user name), query parameters
// that carry tokens or keys (Microsub's access_token, Fever's api_key, ClientLogin's Passwd), an
// Authorization header's value, and JSON fields named like one.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>\\]*):[^\s/?#@"'<>\\]*@/gi;
// the same inside a percent-encoded path: a Google Reader stream id `feed/<URL>` in a request path
const ENCODED_URL_PASSWORD = /(%3A%2F%2F[^\s/?#@%:"'<>\\]*)%3A[^\s/?#@"'<>\\]*?%40/gi;
const URL_USER_ONLY = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:"'<>\\*]+@/gi;
const SECRET_PARAMETER =
  /([?&;](?:access_token|refresh_token|id_token|client_secret|api_key|apikey|key|token|auth|passwd|password|pass|pwd|secret|sig|signature)=)[^&#\s"'<>\\]*/gi;
// an Authorization value: Basic's base64 may be short, a token's name says nothing of its length
const AUTH_SCHEME = /\b(Bearer\s+|Basic\s+|GoogleLogin\s+auth=)[^\s"',;\\]{4,}/gi;
const SECRET_FIELD =
  /"(authorization|proxy-authorization|cookie|set-cookie|password|passwd|api_key|access_token|token|secret|x-api-key)":"(?:[^"\\]|\\.)*"/gi;

/** The text with every credential it holds (see above) replaced by `***`. */
export function redactSecrets(text: string): string {
  return text
    .replace(URL_PASSWORD, '$1:***@')
    .replace(ENCODED_URL_PASSWORD, '$1%3A***%40')
    .replace(URL_USER_ONLY, '$1***@')
    .replace(SECRET_PARAMETER, '$1***')
    .replace(AUTH_SCHEME, '$1***')
    .replace(SECRET_FIELD, '"$1":"***"');
}
